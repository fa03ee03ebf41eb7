"""A trainer's step that back-propagates a scaled copy and returns the loss (joeynmt), and a step's output
dict whose 'loss' went backward, kept whole for the epoch's end (packnet-sfm)."""

import torch


class Trainer:
    def __init__(self, model, optimizer, batch_multiplier):
        self.model = model
        self.optimizer = optimizer
        self.batch_multiplier = batch_multiplier

    def _train_batch(self, batch, update=True):
        batch_loss = self.model.get_loss_for_batch(batch)
        norm_batch_loss = batch_loss / batch.nseqs
        norm_batch_multiply = norm_batch_loss / self.batch_multiplier
        norm_batch_multiply.backward()
        if update:
            self.optimizer.step()
            self.optimizer.zero_grad()
        return norm_batch_loss

    def train_and_validate(self, train_iter, epochs):
        for epoch in range(epochs):
            epoch_loss = 0
            for batch in train_iter:
                batch_loss = self._train_batch(batch)
                epoch_loss += batch_loss  # expect: PP502
            print(epoch, epoch_loss / len(train_iter))


def train_epoch(module, dataloader, optimizer):
    module.train()
    outputs = []
    for i, batch in enumerate(dataloader):
        optimizer.zero_grad()
        batch = {k: v.to(torch.device("cuda")) for k, v in batch.items()}
        output = module.training_step(batch, i)
        output["loss"].backward()
        optimizer.step()
        outputs.append(output)  # expect: PP502
    return module.training_epoch_end(outputs)
