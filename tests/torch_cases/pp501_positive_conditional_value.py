"""A read in both values of a conditional expression (RecBole's trainer in DuoRec, hold-out 48)."""

import torch

device = torch.device("cuda")


class Trainer:
    def __init__(self, model):
        self.model = model.to(device)
        self.optimizer = torch.optim.Adam(self.model.parameters())

    def _train_epoch(self, train_data, loss_func):
        total = None
        for interaction in train_data:
            interaction = interaction.to(device)
            self.optimizer.zero_grad()
            losses = loss_func(interaction)
            if isinstance(losses, tuple):
                loss = sum(losses)
                loss_tuple = tuple(per_loss.item() for per_loss in losses)
                total = (
                    loss_tuple
                    if total is None
                    else tuple(a + b for a, b in zip(total, loss_tuple, strict=True))
                )
            else:
                loss = losses
                total = losses.item() if total is None else total + losses.item()  # expect: PP501
            loss.backward()
            self.optimizer.step()
        return total
