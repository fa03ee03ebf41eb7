"""(torch-fix58) Shapes PP506 now follows: a signal window (`torch.hamming_window(n).to(...)`), a host tensor
resized or permuted on the way (`torch.ones(n).resize(1, n)`, `torch.eye(c)[labels].permute(...)` moved by
`.type(logits.type())`), a factory divided by `len(...)` in a loss's per-image loop, and an attack's copy before
its own steps when the training loop runs the attack on every step.
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def covariance(source):
    n = source.size(0)
    device = torch.device("cuda") if source.is_cuda else torch.device("cpu")
    id_row = torch.ones(n).resize(1, n).to(device=device)  # expect: PP506 medium
    return torch.mm(id_row, source) / n


def dice_loss(true, logits, eps=1e-7):
    num_classes = logits.shape[1]
    true_1_hot = torch.eye(num_classes)[true.squeeze(1)]
    true_1_hot = true_1_hot.permute(0, 3, 1, 2).float()
    probas = F.softmax(logits, dim=1)
    true_1_hot = true_1_hot.type(logits.type())  # expect: PP506 high
    return 1 - (2 * (probas * true_1_hot).sum() + eps) / ((probas + true_1_hot).sum() + eps)


class CountLoss(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.device = device

    def forward(self, density, points):
        loss = 0
        for idx, im_points in enumerate(points):
            if len(im_points) > 0:
                target = (torch.ones([len(im_points)]) / len(im_points)).to(  # expect: PP506 high
                    self.device
                )
                loss = loss + (density[idx].sum() - target.sum()).abs()
        return loss


class Trainer:
    def __init__(self, model, gpu_id, n_fft):
        self.model = model
        self.gpu_id = gpu_id
        self.n_fft = n_fft

    def train_step(self, noisy, opt):
        window = torch.hamming_window(self.n_fft).to(self.gpu_id)  # expect: PP506 medium
        spec = torch.stft(noisy, self.n_fft, window=window, return_complex=True)
        loss = self.model(spec.abs()).mean() + covariance(noisy).mean() + dice_loss(noisy, noisy)
        opt.zero_grad()
        loss.backward()
        opt.step()


def attack_pgd(model, X, y, epsilon, alpha, attack_iters, restarts):
    max_loss = torch.zeros(y.shape[0]).cuda()  # expect: PP506 high
    max_delta = torch.zeros_like(X).cuda()
    for _ in range(restarts):
        delta = torch.zeros_like(X).cuda()
        delta.uniform_(-epsilon, epsilon)
        delta.requires_grad = True
        for _ in range(attack_iters):
            loss = F.cross_entropy(model(X + delta), y)
            loss.backward()
            delta.data = delta + alpha * delta.grad.sign()
            delta.grad.zero_()
        all_loss = F.cross_entropy(model(X + delta), y, reduction="none")
        max_delta[all_loss >= max_loss] = delta.detach()[all_loss >= max_loss]
        max_loss = torch.max(max_loss, all_loss)
    return max_delta


def train(model, train_batches, opt, epochs):
    for _epoch in range(epochs):
        for _i, (X, y) in enumerate(train_batches):
            X, y = X.cuda(), y.cuda()
            delta = attack_pgd(model, X, y, 8 / 255, 2 / 255, 10, 1)
            loss = F.cross_entropy(model(X + delta), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
