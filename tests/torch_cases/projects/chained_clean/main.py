from data_loader import get_loader
from report import Summary


def main(config):
    # handed to a class of another module that only counts the images: no copy to the GPU
    train_loader = get_loader(config.train_path, config.batch_size)
    Summary(config, train_loader).show()
