from models import ChangeNet
from trainer import ChangeTrainer

from data import get_loaders


def train(args):
    dataloaders = get_loaders(args)
    trainer = ChangeTrainer(args=args, net=ChangeNet(), dataloaders=dataloaders)
    trainer.train_models()
