import torch
import utils
from model import VGG


def train(loader, epochs):
    model = VGG().cuda()
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(epochs):
        for target, noisy in loader:
            target, noisy = target.cuda(), noisy.cuda()
            target, noisy = utils.MixUp_AUG().aug(target, noisy)
            loss = (model(noisy) - target).abs().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
