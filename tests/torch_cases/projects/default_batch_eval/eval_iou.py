import argparse

import torch
from dataset import CityFrames
from torch.utils.data import DataLoader


def main(args, model):
    device = torch.device("cuda")
    model.to(device).eval()
    loader = DataLoader(CityFrames(args.datadir), num_workers=4, batch_size=args.batch_size)  # expect: PP505
    hits = 0
    with torch.no_grad():
        for images, _ in loader:
            hits += model(images.to(device)).argmax(1).sum()
    print(hits)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--datadir", default="cityscapes")
    parser.add_argument("--batch-size", type=int, default=1)
    main(parser.parse_args(), torch.load("model.pth"))
