"""A smoke step that builds its own model and optimizer and steps once; a debug read the environment turns on."""

import os

import torch


def _make_optimizer(cfg, params):
    if cfg.optimizer == "sgd":
        return torch.optim.SGD(params, lr=cfg.lr)
    raise ValueError(cfg.optimizer)


def build_context(cfg):
    model = torch.nn.Linear(cfg.dim, cfg.dim).to(cfg.device)
    loader = cfg.make_loader()
    return model, loader, _make_optimizer(cfg, model.parameters())


def run_smoke_step(cfg):
    model, loader, optimizer = build_context(cfg)
    x, y = next(iter(loader))
    x, y = x.to(cfg.device), y.to(cfg.device)
    loss = torch.nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return {"loss": float(loss.detach().cpu().item())}


class Learner:
    def __init__(self, net, optimizer):
        self.net = net.cuda()
        self.optimizer = optimizer
        self.debug_steps = 0

    def _debug(self, logits):
        enabled = os.getenv("LEARNER_DEBUG", "").lower() in {"1", "true"}
        if not enabled:
            return
        self.debug_steps += 1
        if self.debug_steps % 50 != 0:
            return
        print("confidence", torch.softmax(logits.detach(), 1).max(1).values.mean().item())

    def observe(self, loader):
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            logits = self.net(x)
            loss = torch.nn.functional.cross_entropy(logits, y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self._debug(logits)
