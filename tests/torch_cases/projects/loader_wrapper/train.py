from trainer import Trainer
from utils import get_all_data_loaders


def main(config, max_iter):
    trainer = Trainer(config)
    trainer.cuda()
    train_loader_a, train_loader_b, test_loader_a, test_loader_b = get_all_data_loaders(config)
    iterations = 0
    while True:
        for images_a, images_b in zip(train_loader_a, train_loader_b, strict=False):
            images_a, images_b = images_a[0].cuda().detach(), images_b[0].cuda().detach()
            trainer.dis_update(images_a, images_b, config)
            trainer.gen_update(images_a, images_b, config)
            iterations += 1
            if iterations >= max_iter:
                return
