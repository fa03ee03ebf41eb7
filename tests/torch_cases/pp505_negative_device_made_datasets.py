import torch
from torch.utils.data import DataLoader, Dataset


class BufferSet(Dataset):
    def __init__(self, data, targets=None, device="cpu"):
        self.data = data.to(device)
        self.targets = targets.to(device) if targets is not None else None

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        if self.targets is None:
            return self.data[i]
        return self.data[i], self.targets[i]


class Model:
    """The buffer is handed to the data set with the device: its tensors are on the GPU already (torch-fix154: no finding)."""

    def fit_buffer(self, net, opt, buffer):
        clean = BufferSet(buffer.examples, buffer.labels, device=self.device)
        clean_dl = DataLoader(clean, batch_size=self.batch_size, drop_last=True)
        for x, y in clean_dl:
            x, y = x.to(self.device), y.to(self.device)
            opt.zero_grad()
            torch.nn.functional.cross_entropy(net(x), y).backward()
            opt.step()
