import numpy as np
import torch
from PIL import Image
from torch.utils.data import Dataset


class FlyingChairs(Dataset):
    """Image pairs and flow fields read from disk and decoded for every item."""

    def __init__(self, image_size, split="training", root="datasets/FlyingChairs_release/data"):
        self.image_size = image_size
        self.pairs = [(f"{root}/{i:05d}_img1.ppm", f"{root}/{i:05d}_img2.ppm") for i in range(22872)]
        self.flows = [f"{root}/{i:05d}_flow.npy" for i in range(22872)]

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, index):
        img1 = np.array(Image.open(self.pairs[index][0])).astype(np.uint8)
        img2 = np.array(Image.open(self.pairs[index][1])).astype(np.uint8)
        flow = np.load(self.flows[index]).astype(np.float32)
        img1 = torch.from_numpy(img1).permute(2, 0, 1).float()
        img2 = torch.from_numpy(img2).permute(2, 0, 1).float()
        return img1, img2, torch.from_numpy(flow).permute(2, 0, 1)
