"""A read in one value of a conditional expression only: the switch decides whether the step reads."""

import torch

device = torch.device("cuda")


class Trainer:
    def __init__(self, model, verbose=False):
        self.model = model.to(device)
        self.optimizer = torch.optim.Adam(self.model.parameters())
        self.verbose = verbose

    def _train_epoch(self, train_data, loss_func):
        shown = []
        for interaction in train_data:
            interaction = interaction.to(device)
            self.optimizer.zero_grad()
            loss = loss_func(interaction)
            shown.append(loss.item() if self.verbose else None)
            loss.backward()
            self.optimizer.step()
        return shown
