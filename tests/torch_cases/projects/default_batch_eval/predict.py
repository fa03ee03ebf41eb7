import sys

import torch
from dataset import CityFrames
from torch.utils.data import DataLoader


def main(root, model):
    device = torch.device("cuda")
    model.to(device).eval()
    loader = DataLoader(CityFrames(root, "test"), num_workers=2, shuffle=False)  # expect: PP505
    with torch.no_grad():
        for images, names in loader:
            print(names, model(images.to(device)).argmax(1))


if __name__ == "__main__":
    main(sys.argv[1], torch.load("model.pth"))
