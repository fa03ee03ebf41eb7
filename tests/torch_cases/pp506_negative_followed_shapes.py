"""(torch-fix58) The clean twins of pp506_positive_followed_shapes.py: the window, the ones row and the one-hot
rows made on the device, the per-image target made with `device=`, the window made once in `__init__`, and an
attack whose copy before its steps is amortised: the training loop runs the attack only every 100 steps."""

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def covariance(source):
    n = source.size(0)
    id_row = torch.ones(1, n, device=source.device)
    return torch.mm(id_row, source) / n


def dice_loss(true, logits, eps=1e-7):
    num_classes = logits.shape[1]
    true_1_hot = torch.eye(num_classes, device=logits.device)[true.squeeze(1)]
    true_1_hot = true_1_hot.permute(0, 3, 1, 2).float()
    probas = F.softmax(logits, dim=1)
    return 1 - (2 * (probas * true_1_hot).sum() + eps) / ((probas + true_1_hot).sum() + eps)


class CountLoss(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.device = device

    def forward(self, density, points):
        loss = 0
        for idx, im_points in enumerate(points):
            if len(im_points) > 0:
                target = torch.full([len(im_points)], 1 / len(im_points), device=self.device)
                loss = loss + (density[idx].sum() - target.sum()).abs()
        return loss


class Trainer:
    def __init__(self, model, gpu_id, n_fft):
        self.model = model
        self.gpu_id = gpu_id
        self.n_fft = n_fft
        self.window = torch.hamming_window(n_fft).to(gpu_id)

    def train_step(self, noisy, opt):
        spec = torch.stft(noisy, self.n_fft, window=self.window, return_complex=True)
        loss = self.model(spec.abs()).mean() + covariance(noisy).mean() + dice_loss(noisy, noisy)
        opt.zero_grad()
        loss.backward()
        opt.step()


def attack_pgd(model, X, y, epsilon, alpha, attack_iters):
    max_loss = torch.zeros(y.shape[0]).cuda()
    delta = torch.zeros_like(X).uniform_(-epsilon, epsilon)
    delta.requires_grad = True
    for _ in range(attack_iters):
        loss = F.cross_entropy(model(X + delta), y)
        loss.backward()
        delta.data = delta + alpha * delta.grad.sign()
        delta.grad.zero_()
    all_loss = F.cross_entropy(model(X + delta), y, reduction="none")
    return delta.detach(), torch.max(max_loss, all_loss)


def train(model, train_batches, opt, epochs):
    for _epoch in range(epochs):
        for i, (X, y) in enumerate(train_batches):
            X, y = X.cuda(), y.cuda()
            if i % 100 == 0:
                delta, _ = attack_pgd(model, X, y, 8 / 255, 2 / 255, 10)
            loss = F.cross_entropy(model(X), y)
            opt.zero_grad()
            loss.backward()
            opt.step()


class Spectrogram(nn.Module):
    def __init__(self, n_fft):
        super().__init__()
        self.n_fft = n_fft
        self.windows = {}

    def forward(self, audio, keyshift=0):
        key = str(keyshift) + "_" + str(audio.device)
        if key not in self.windows:
            self.windows[key] = torch.hann_window(self.n_fft).to(audio.device)
        return torch.stft(audio, self.n_fft, window=self.windows[key], return_complex=True).abs()


def monotonic_path(scores, search):
    """A Cython search fills `path` in place: host results, whose copy is needed."""
    path = np.ascontiguousarray(np.zeros(scores.shape, dtype=np.int32))
    search(path, scores.shape[1])
    return torch.from_numpy(path).to(device=scores.device)


def fit_durations(model, loader, opt, search):
    for scores, mask in loader:
        scores, mask = scores.cuda(), mask.cuda()
        path = monotonic_path(scores, search)
        loss = (model(scores) * path).mean() + Spectrogram(400)(scores[:, 0]).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()


def perturb(model, x, step_size, steps, distance="l_inf"):
    x_adv = x.detach().clone()
    if distance == "l_inf":
        x_adv = x_adv + 0.001 * torch.randn(x.shape).cuda()
    for _ in range(steps):
        x_adv.requires_grad_()
        grad = torch.autograd.grad(model(x_adv).sum(), [x_adv])[0]
        x_adv = x_adv.detach() + step_size * torch.sign(grad)
    return x_adv


def train_trades(model, loader, opt, norm):
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        x_adv = perturb(model, x, 0.003, 10, distance=norm)
        loss = F.cross_entropy(model(x_adv), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
