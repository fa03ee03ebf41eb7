"""PP501 (torch-fix127), silent: the evaluation loop's helper is called only every N batches, reads under a
switch of its own, or reads a value that is no loss (a count the caller needs)."""

import torch

device = torch.device("cuda")


class Evaluator:
    def __init__(self, model, loss_fn, loader, verbose=False):
        self.model = model.to(device)
        self.loss_fn = loss_fn
        self.loader = loader
        self.verbose = verbose

    def log_batch(self, data, target):
        return self.loss_fn(self.model(data), target).item()

    def predict(self, data, target):
        output = self.model(data)
        loss = self.loss_fn(output, target)
        if self.verbose:
            print(loss.item())
        return loss.detach()

    def evaluate(self):
        self.model.eval()
        total = torch.zeros((), device=device)
        with torch.no_grad():
            for i, (data, target) in enumerate(self.loader):
                data, target = data.to(device), target.to(device)
                total += self.predict(data, target)
                if i % 100 == 0:
                    self.log_batch(data, target)
        return total.item()
