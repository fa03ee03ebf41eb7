import glob

import torch


class ShardSet(torch.utils.data.Dataset):
    def __init__(self, folder):
        self.files = sorted(glob.glob(folder + "*.pt"))

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        return torch.load(self.files[i])
