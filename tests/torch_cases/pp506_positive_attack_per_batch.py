"""An attack's start noise drawn on the host before the attack's own steps: the attack runs once per test
batch (a loader loop calls it) or on every forward of a decoder (VAT), so the copy is made per batch, not
once per attack run."""

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.autograd import Variable

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def pgd_whitebox(model, X, y, epsilon=0.031, num_steps=20, step_size=0.003):
    out = model(X)
    err = (out.data.max(1)[1] != y.data).float().sum()
    X_pgd = Variable(X.data, requires_grad=True)
    noise = torch.FloatTensor(*X_pgd.shape).uniform_(-epsilon, epsilon).to(device)  # expect: PP506 medium
    X_pgd = Variable(X_pgd.data + noise, requires_grad=True)
    for _ in range(num_steps):
        opt = optim.SGD([X_pgd], lr=1e-3)
        opt.zero_grad()
        loss = nn.CrossEntropyLoss()(model(X_pgd), y)  # expect: PP507 high
        loss.backward()
        X_pgd = Variable(X_pgd.data + step_size * X_pgd.grad.data.sign(), requires_grad=True)
    err_pgd = (model(X_pgd).data.max(1)[1] != y.data).float().sum()
    return err, err_pgd


def eval_whitebox(model, test_loader):
    model.eval()
    robust = 0
    for data, target in test_loader:
        data, target = data.to(device), target.to(device)
        X, y = Variable(data, requires_grad=True), Variable(target)
        _, err_robust = pgd_whitebox(model, X, y)
        robust += err_robust
    return robust


def get_r_adv(x, decoder, it=1, xi=1e-1, eps=10.0):
    with torch.no_grad():
        pred = F.softmax(decoder(x), dim=1)
    d = torch.rand(x.shape).sub(0.5).to(x.device)  # expect: PP506 high
    for _ in range(it):
        d.requires_grad_()
        adv_distance = F.kl_div(F.log_softmax(decoder(x + xi * d), dim=1), pred, reduction="batchmean")
        adv_distance.backward()
        d = d.grad / (d.grad.norm() + 1e-8)
        decoder.zero_grad()
    return d * eps


class VATDecoder(nn.Module):
    def __init__(self, upscale, conv_in_ch, num_classes):
        super().__init__()
        self.upsample = nn.Conv2d(conv_in_ch, num_classes, 1)

    def forward(self, x):
        r_adv = get_r_adv(x, self.upsample)
        return self.upsample(x + r_adv)
