"""A step method handing its loss to `optimize` reads only host tensors, or reads under a remainder test."""

import torch


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model.cuda()
        self.optimizer = optimizer
        self.n_steps = 0
        self.running = None

    def optimize(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

    def clm_step(self, x, lengths):
        assert (lengths > 0).sum().item() == len(lengths)
        x, lengths = x.cuda(), lengths.cuda()
        loss = self.model(x, lengths)
        self.optimize(loss)
        self.running = loss.detach() if self.running is None else self.running + loss.detach()
        self.n_steps += 1
        if self.n_steps % 100 == 0:
            print(self.running.item() / self.n_steps)
            self.running = torch.zeros((), device=loss.device)
