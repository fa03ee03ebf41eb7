import torch
from torch.utils.data import DataLoader, Dataset


class BufferSet(Dataset):
    def __init__(self, data, targets, transform=None, device="cpu"):
        self.data, self.targets = data.to(device), targets.to(device)
        self.transform = transform

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        x = self.data[i]
        if self.transform is not None:
            x = self.transform(x)
        return x, self.targets[i]


class Model:
    def fit_buffer(self, net, opt, buffer):
        noisy = BufferSet(buffer.examples, buffer.labels, transform=self.transform, device=self.device)
        noisy_dl = DataLoader(noisy, batch_size=self.batch_size, shuffle=True, num_workers=0, pin_memory=True)
        for x, y in noisy_dl:
            x, y = x.to(self.device), y.to(self.device)
            opt.zero_grad()
            torch.nn.functional.cross_entropy(net(x), y).backward()
            opt.step()
