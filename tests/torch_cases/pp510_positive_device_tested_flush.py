import torch
from torch.utils.data import DataLoader


class Worker:
    def __init__(self, wid, shard, device):
        self.wid = wid
        self.shard = shard
        self.device = device
        self.net = None

    def local_update(self, epochs, lr):
        self.net.train()
        self.net.to(self.device)
        opt = torch.optim.SGD(self.net.parameters(), lr=lr)
        batches = DataLoader(self.shard, batch_size=32, shuffle=True, num_workers=2, pin_memory=True)
        for _ in range(epochs):
            for xb, yb in batches:
                xb, yb = xb.to(self.device), yb.to(self.device)
                opt.zero_grad()
                loss = torch.nn.functional.cross_entropy(self.net(xb), yb)
                loss.backward()
                opt.step()
                if self.device == "cuda": torch.cuda.empty_cache()  # expect: PP510 medium  # noqa: E701  # fmt: skip
        self.net.to("cpu")
