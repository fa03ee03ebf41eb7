import numpy as np
import torch
from PIL import Image
from torch.utils.data import Dataset


class ChangeScenes(Dataset):
    def __init__(self, root, split):
        self.files = sorted(f"{root}/{split}/{i}.png" for i in range(1000))

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        image = np.asarray(Image.open(self.files[i]), dtype=np.float32)
        return {"A": torch.from_numpy(image[..., :3]), "B": torch.from_numpy(image[..., 3:])}
