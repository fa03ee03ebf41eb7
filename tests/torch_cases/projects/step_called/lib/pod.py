import torch

from lib.base import Learner


class PodLearner(Learner):
    def __init__(self, network, loader, device, distill):
        super().__init__(network, loader, device)
        self._distill = distill

    def _compute_loss(self, outputs, targets):
        loss = torch.nn.functional.cross_entropy(outputs, targets)
        if self._distill:
            distill = outputs.pow(2).mean()
            self._metrics["distill"] = distill.item()  # expect: PP501
            loss = loss + distill
        return loss
