"""A lesson's toy: four samples written into the script, trained for fifty steps. The per-step read and the
losses kept with their graph are real, but cost nothing anyone would measure, so they are reported at medium
(hold-out 4: a book's four-point net, a five-sample DDP demo)."""

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

device = "cuda" if torch.cuda.is_available() else "cpu"
x = [[1, 2], [3, 4], [5, 6], [7, 8]]
y = [[3], [7], [11], [15]]


class PairSet(Dataset):
    def __init__(self, x, y):
        self.x = torch.tensor(x).float()
        self.y = torch.tensor(y).float()

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


net = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
loader = DataLoader(PairSet(x, y), batch_size=2, shuffle=True, num_workers=2)
loss_fn = nn.MSELoss()
opt = torch.optim.SGD(net.parameters(), lr=0.001)
history = []
for _ in range(50):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        opt.zero_grad()
        loss = loss_fn(net(xb), yb)
        loss.backward()
        opt.step()
        history.append(loss)  # expect: PP502 medium
        print(loss.item())  # expect: PP501 medium
