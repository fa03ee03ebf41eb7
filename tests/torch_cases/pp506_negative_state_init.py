"""Optimizer state made once per parameter under `if len(state) == 0:` (timm's Adafactor and NvNovoGrad,
hold-out 13): the branch runs on the first step of each parameter only."""

import torch


class Factored(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3):
        super().__init__(params, dict(lr=lr))

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()

        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad
                if grad.dtype in {torch.float16, torch.bfloat16}:
                    grad = grad.float()
                state = self.state[p]
                factored = len(grad.shape) >= 2
                if len(state) == 0:
                    state["step"] = 0
                    if factored:
                        state["row"] = torch.zeros(grad.shape[:-1]).to(grad)
                    state["sq"] = torch.zeros([]).to(state["row"].device)
                state["step"] += 1
                state["row"].mul_(0.9).add_(grad.pow(2).mean(-1), alpha=0.1)
                p.add_(grad, alpha=-group["lr"])
        return loss


def train(model, loader, epochs):
    model = model.cuda()
    optimizer = Factored(model.parameters())
    for _ in range(epochs):
        for x, y in loader:
            loss = torch.nn.functional.cross_entropy(
                model(x.cuda(non_blocking=True)), y.cuda(non_blocking=True)
            )
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
