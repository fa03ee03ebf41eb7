"""Training steps whose loop is in another module: a step method handing its loss to the class's own
`optimize` (which backpropagates and steps), a subclass's step using its base class's `optimize`; reads of
batch tensors before the step moves them to the GPU are host reads."""

import torch


def to_cuda(*args):
    return [None if x is None else x.cuda() for x in args]


class Trainer:
    def __init__(self, model, optimizers, params):
        self.model = model.cuda()
        self.optimizers = optimizers
        self.params = params
        self.stats = {"CLM": [], "processed_w": 0}

    def optimize(self, loss):
        if self.params.amp == -1:
            for optimizer in self.optimizers:
                optimizer.zero_grad()
            loss.backward()
            for optimizer in self.optimizers:
                optimizer.step()

    def clm_step(self, x, lengths):
        pred_mask = torch.arange(lengths.max())[:, None] < lengths[None] - 1
        assert pred_mask.sum().item() > 0
        x, lengths, pred_mask = to_cuda(x, lengths, pred_mask)
        loss = self.model(x, lengths, pred_mask)
        self.stats["CLM"].append(loss.item())  # expect: PP501
        self.optimize(loss)
        self.stats["processed_w"] += pred_mask.sum().item()


class EncDecTrainer(Trainer):
    def mt_step(self, x1, x2):
        x1, x2 = to_cuda(x1, x2)
        loss = self.model(x1, x2)
        self.stats["CLM"].append(loss.item())  # expect: PP501
        self.optimize(loss)
