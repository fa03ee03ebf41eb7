import torch

from lib.base import Learner


class PodLearner(Learner):
    def __init__(self, network, loader, device, distill, log_terms):
        super().__init__(network, loader, device)
        self._distill = distill
        self._log_terms = log_terms

    def _compute_loss(self, outputs, targets):
        loss = torch.nn.functional.cross_entropy(outputs, targets)
        if self._distill:
            distill = outputs.pow(2).mean()
            if self._log_terms:
                self._metrics["distill"] = distill.item()
            loss = loss + distill
        return loss
