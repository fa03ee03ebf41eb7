"""Optimizers kept in a dict, silent: the per-batch method returns its losses detached for the caller to
sum on the device, and a dict of schedulers (`self.sched['g'].step()`) is no optimizer."""

from torch import optim


class MUGAN:
    def __init__(self, gen, disc):
        self.g, self.d = gen.cuda(), disc.cuda()
        self.optim = {
            "g": optim.Adam(self.g.parameters(), lr=2e-4),
            "d": optim.Adam(self.d.parameters(), lr=2e-4),
        }
        self.sched = {k: optim.lr_scheduler.ExponentialLR(o, gamma=0.99) for k, o in self.optim.items()}

    def train_on_instance(self, z, x):
        self.optim["d"].zero_grad()
        d_loss = self.d(self.g(z).detach()).mean() - self.d(x).mean()
        d_loss.backward()
        self.optim["d"].step()
        return {"d_loss": d_loss.detach()}

    def end_epoch(self, history):
        self.sched["g"].step()
        self.sched["d"].step()
        history.append(self.g.weight.sum().item())
