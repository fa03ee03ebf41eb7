"""The same steps keeping only host values: the returned loss read with .item(), the dict detached."""

import torch


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def _train_batch(self, batch):
        batch_loss = self.model.get_loss_for_batch(batch)
        norm_batch_loss = batch_loss / batch.nseqs
        norm_batch_loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()
        return batch.ntokens

    def train_and_validate(self, train_iter, epochs):
        for epoch in range(epochs):
            epoch_tokens = 0
            for batch in train_iter:
                epoch_tokens += self._train_batch(batch)
            print(epoch, epoch_tokens)


def train_epoch(module, dataloader, optimizer):
    outputs = []
    for i, batch in enumerate(dataloader):
        optimizer.zero_grad()
        output = module.training_step({k: v.to(torch.device("cuda")) for k, v in batch.items()}, i)
        output["loss"].backward()
        optimizer.step()
        outputs.append({k: v.detach() for k, v in output.items()})
    return module.training_epoch_end(outputs)
