"""The same helpers, whose batches a script only counts: nothing goes to the GPU."""

from utils import get_all_data_loaders


def main(config):
    train_loader_a, train_loader_b, _, _ = get_all_data_loaders(config)
    seen = 0
    for images_a, images_b in zip(train_loader_a, train_loader_b, strict=False):
        seen += images_a[0].shape[0] + images_b[0].shape[0]
    print(seen)
