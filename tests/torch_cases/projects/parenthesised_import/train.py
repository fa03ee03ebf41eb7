import torch
from models import (
    crnn,
    crnn_lang,
    # ctc,
)


def train(loader, epochs, lang):
    model = (crnn_lang if lang else crnn).Decoder(64).cuda()
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            loss = (model(x) - y).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
