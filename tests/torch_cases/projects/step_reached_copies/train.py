import torch
from model import Separator


def train(loader):
    model = Separator().cuda()
    optimizer = torch.optim.Adam(model.parameters())
    for batch in loader:
        loss = model(batch.cuda()).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
