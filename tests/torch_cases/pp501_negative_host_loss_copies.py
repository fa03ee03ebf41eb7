"""A CTC loss computed on the CPU from the output's host copy: `.item()` of it waits for nothing new."""

import math

import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, net, optimizer, device):
        self.net = net.to(device)
        self.optimizer = optimizer
        self.device = device

    def ctc(self, output, targets, lengths):
        return F.ctc_loss(output.log_softmax(2), targets, lengths, lengths)

    def train_epoch(self, loader):
        total = 0.0
        for i, (audio, targets, lengths) in enumerate(loader):
            self.optimizer.zero_grad()
            audio = audio.to(self.device)
            output, _ = self.net(audio)
            if self.device != torch.device("cpu"):
                output = output.to("cpu")
            loss = self.ctc(output, targets, lengths)
            if math.isnan(loss.item()):
                continue
            print(f"step {i} loss {loss.item()}")
            total += loss.item()
            loss.backward()
            self.optimizer.step()
        return total

    def test_epoch(self, loader):
        self.net.eval()
        total = 0.0
        for audio, targets, lengths in loader:
            audio = audio.to(self.device)
            with torch.no_grad():
                output, _ = self.net(audio)
            output = output.cpu()
            loss = self.ctc(output, targets, lengths)
            total += loss.item()
        return total
