import torch.nn.functional as F
from losses import edge_loss


def train(model, loader, optimizer, epochs):
    for _epoch in range(epochs):
        for rainy, clean in loader:
            rainy, clean = rainy.cuda(), clean.cuda()
            out = model(rainy)
            loss = F.mse_loss(out, clean) + 0.1 * edge_loss(clean, out)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
