import models.crnn_lang as crnn
import torch


def train(loader, epochs):
    model = crnn.Decoder(64).cuda()
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            loss = (model(x) - y).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
