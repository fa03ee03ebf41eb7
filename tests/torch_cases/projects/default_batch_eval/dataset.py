import os

import numpy as np
import torch
from PIL import Image
from torch.utils.data import Dataset


class CityFrames(Dataset):
    def __init__(self, root, subset="val"):
        self.folder = os.path.join(root, subset)
        self.names = sorted(os.listdir(self.folder))

    def __getitem__(self, index):
        image = Image.open(os.path.join(self.folder, self.names[index])).convert("RGB")
        return torch.from_numpy(np.asarray(image)).permute(2, 0, 1).float(), self.names[index]

    def __len__(self):
        return len(self.names)
