"""A VAE trainer written for PyTorch before 0.4 reads its three losses with `.data[0]` (what `.item()` is
now) every step and reads nothing else (hold-out 17's VampPrior `train_vae`): reported alone, at medium,
since the code fails on today's PyTorch as written."""

import torch
from torch.autograd import Variable


def train_vae(epoch, args, train_loader, model, optimizer):
    train_loss = 0
    train_kl = 0
    model.train()
    for data, target in train_loader:
        if args.cuda:
            data, target = data.cuda(), target.cuda()
        x = torch.bernoulli(Variable(data))
        optimizer.zero_grad()
        loss, RE, KL = model.calculate_loss(x, average=True)
        loss.backward()
        optimizer.step()
        train_loss += loss.data[0]  # expect: PP501
        train_kl += KL.data[0]
    return model, train_loss / len(train_loader), train_kl / len(train_loader)
