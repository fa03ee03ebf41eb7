import numpy as np
import torch


class TextMelLoader(torch.utils.data.Dataset):
    def __init__(self, files, hparams):
        self.files = files

    def __len__(self):
        return len(self.files)

    def __getitem__(self, index):
        return torch.from_numpy(np.load(self.files[index]))


class TextMelCollate:
    def __init__(self, n_frames_per_step):
        self.n_frames_per_step = n_frames_per_step

    def __call__(self, batch):
        return torch.stack(batch)
