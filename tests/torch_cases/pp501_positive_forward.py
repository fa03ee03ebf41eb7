"""Host reads of a loss inside `forward`, which runs on every training step (hold-out 3 misses)."""

import torch
import torch.nn as nn


class AdversarialLoss(nn.Module):
    def __init__(self, discriminator):
        super().__init__()
        self.discriminator = discriminator
        self.balance = 0.0

    def forward(self, source, target):
        domain_loss = self.discriminator(source).mean() - self.discriminator(target).mean()
        self.balance = self.balance + 2 * (1 - 2 * domain_loss.cpu().item())  # expect: PP501
        return domain_loss


class Recognizer(nn.Module):
    def __init__(self, encoder, decoder, reporter):
        super().__init__()
        self.encoder, self.decoder, self.reporter = encoder, decoder, reporter

    def forward(self, xs, lengths, ys):
        max_len = int(lengths.max())  # a length, not a loss: shapes need it
        hidden = self.encoder(xs[:, :max_len])
        self.loss = nn.functional.cross_entropy(self.decoder(hidden), ys)
        loss_value = float(self.loss)  # expect: PP501
        self.reporter.report(loss_value)
        return self.loss


class Logged(nn.Module):
    def __init__(self, body):
        super().__init__()
        self.body, self.calls = body, 0

    def forward(self, x, y):
        loss = nn.functional.mse_loss(self.body(x), y)
        self.calls += 1
        if self.calls % 100 == 0:
            print(loss.item())
        return loss


model = Recognizer(nn.LSTM(80, 256), nn.Linear(256, 30), None).to(torch.device("cuda"))
