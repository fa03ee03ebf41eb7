from data_loader import get_loader
from solver import Solver


def main(config):
    train_loader = get_loader(config.train_path, config.batch_size)
    valid_loader = get_loader(config.valid_path, config.batch_size, mode="valid")
    solver = Solver(config, train_loader, valid_loader)
    solver.train()
