"""A TTS trainer imports `isnan` from `math` and skips the update on a NaN gradient norm: `math.isnan` calls
`float()` on the device tensor `clip_grad_norm_` returns, so every update waits for the backward, however the
test is imported (review 21 item 3)."""

from math import isnan

import torch


class TacotronTrainer:
    def __init__(self, model, lr, grad_clip_thresh):
        self.model = model.cuda()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr, weight_decay=1e-6)
        self.grad_clip_thresh = grad_clip_thresh

    def optimize(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip_thresh)
        if isnan(grad_norm):  # expect: PP501
            print("gradient overflow, update skipped")
        else:
            self.optimizer.step()
        return grad_norm
