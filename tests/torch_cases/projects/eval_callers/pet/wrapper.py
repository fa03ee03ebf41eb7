import torch
from pet.task_helpers import CopaTaskHelper


class TransformerModelWrapper:
    def __init__(self, model):
        self.model = model
        self.task_helper = CopaTaskHelper(self)

    def eval(self, loader):
        preds = []
        for batch in loader:
            with torch.no_grad():
                preds.append(self.task_helper.eval_step(batch))
        return torch.stack(preds)
