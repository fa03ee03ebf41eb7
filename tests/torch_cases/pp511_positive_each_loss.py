"""A TTS trainer's shape: each loss of the step backpropagated in turn, every one keeping the graph."""

import torch


class Trainer:
    def run_backward(self, model, losses):
        for loss in losses:
            loss.backward(retain_graph=True)  # expect: PP511
        return torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)

    def fit(self, model, loader, criterion, optimizer):
        for batch in loader:
            optimizer.zero_grad()
            losses = criterion(model(batch.cuda()), batch.cuda())
            self.run_backward(model, losses)
            optimizer.step()
