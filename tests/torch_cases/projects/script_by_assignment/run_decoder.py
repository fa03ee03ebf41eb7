import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.hidden = hidden
        self.cell = nn.GRUCell(hidden, hidden)

    def forward(self, x):
        h = torch.zeros(x.size(0), self.hidden).cuda()  # expect: PP506
        return self.cell(x, h)


def train(loader, epochs):
    model = Decoder(64).cuda()
    optimizer = torch.optim.Adam(model.parameters())
    losses = []
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            loss = (model(x) - y).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.detach())
    return losses


loader = torch.load("batches.pt")
losses = train(loader, epochs=10)
