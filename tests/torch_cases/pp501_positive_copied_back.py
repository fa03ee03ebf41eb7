"""A trainer module that moves nothing to a GPU itself (its batches arrive on the device from a data
loader built elsewhere) but copies the loss back with `.cpu()` on every step: the copy says the loss is on
a device. Medium: the device is out of sight."""

import torch


class Statistics:
    def __init__(self, loss=0.0, n_docs=0):
        self.loss, self.n_docs = loss, n_docs


class Trainer:
    def __init__(self, model, optim, loss):
        self.model, self.optim, self.loss = model, optim, loss

    def _gradient_accumulation(self, true_batchs, normalization, total_stats):
        for batch in true_batchs:
            self.model.zero_grad()
            sent_scores, mask = self.model(batch.src, batch.segs, batch.clss, batch.mask)
            loss = self.loss(sent_scores, batch.labels.float())
            loss = (loss * mask.float()).sum()
            (loss / loss.numel()).backward()
            batch_stats = Statistics(float(loss.cpu().data.numpy()), normalization)  # expect: PP501 medium
            total_stats.update(batch_stats)
            self.optim.step()
        return torch.zeros(1)
