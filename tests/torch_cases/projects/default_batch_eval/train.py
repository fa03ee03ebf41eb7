import argparse

import torch
from dataset import CityFrames
from torch.utils.data import DataLoader


def main(args, model, optimizer, criterion):
    device = torch.device("cuda")
    model.to(device).train()
    frames = CityFrames(args.datadir, "train")
    loader = DataLoader(frames, num_workers=4, batch_size=args.batch_size)  # expect: PP505
    for _ in range(args.epochs):
        for images, labels in loader:
            images, labels = images.to(device), labels.to(device)
            optimizer.zero_grad()
            criterion(model(images), labels).backward()
            optimizer.step()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--datadir", default="cityscapes")
    parser.add_argument("--batch-size", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=150)
    main(parser.parse_args(), *torch.load("setup.pth"))
