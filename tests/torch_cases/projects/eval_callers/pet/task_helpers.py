"""P-tuning's PET shape (hold-out 16): task helpers whose `eval_step` runs the wrapper's model per batch;
pet/wrapper.py calls `self.task_helper.eval_step(batch)` inside its `with torch.no_grad():`."""

import torch


class TaskHelper:
    def __init__(self, wrapper):
        self.wrapper = wrapper

    def eval_step(self, batch, **kwargs):
        return None


class CopaTaskHelper(TaskHelper):
    def eval_step(self, batch, **kwargs):
        self.wrapper.model.eval()
        scores = []
        for choice_ids in batch["choice_ids"]:
            outputs = self.wrapper.model(choice_ids.cuda())
            scores.append(outputs[0].mean())
        return torch.stack(scores)
