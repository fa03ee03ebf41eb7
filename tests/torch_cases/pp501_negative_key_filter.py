"""Loops over a step's dict of outputs, silent: the key test also asks a logging switch (`if verbose and k
in ...`), and a step-count test picks the step (`if step % 100 == 0`), so neither read runs every step."""

import torch


class Trainer:
    def __init__(self, model, optim, loader, verbose):
        self.model = model.cuda()
        self.optim = optim
        self.train_loader = loader
        self.verbose = verbose

    def train(self):
        epoch_results = {"loss": 0.0}
        for step, batch in enumerate(self.train_loader):
            results = self.model.train_step(batch)
            results["loss"].backward()
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.optim.step()
            for k, v in results.items():
                if self.verbose and k in epoch_results:
                    epoch_results[k] += v.item()
                if step % 100 == 0:
                    print(k, v.item())
