import torch
import utils
from torch.autograd import Variable


def train(D, G, data_loader, d_opt, z_dim):
    for imgs, _ in data_loader:
        imgs = Variable(imgs)
        z = Variable(torch.randn(imgs.size(0), z_dim))
        imgs, z = utils.cuda([imgs, z])  # expect: PP506
        d_loss = D(G(z)).mean() - D(imgs).mean()
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()
