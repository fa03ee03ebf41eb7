import torch
import utils
from torch.autograd import Variable


def train(D, G, data_loader, d_opt, z_dim):
    for imgs, _ in data_loader:
        imgs = Variable(imgs)
        z = Variable(torch.randn(imgs.size(0), z_dim))
        imgs, z = utils.cuda([imgs, z])  # expect: PP506 high
        d_loss = D(G(z)).mean() - D(imgs).mean()
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()


def train_one_hot(model, loader, optimizer, use_cuda):
    for inputs_x, targets_x in loader:
        targets_x = torch.zeros(inputs_x.size(0), 10).scatter_(1, targets_x.view(-1, 1).long(), 1)
        if use_cuda:
            inputs_x, targets_x = inputs_x.cuda(), targets_x.cuda(non_blocking=True)  # expect: PP506 high
        loss = -(model(inputs_x).log_softmax(1) * targets_x).sum(1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
