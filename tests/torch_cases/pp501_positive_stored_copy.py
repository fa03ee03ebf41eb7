"""PP501 (torch-fix123): an optimizer wrapper whose `__call__` runs backward and the optimizer step and stores
a host copy of the loss in the metrics dict it returns (dreamer-torch's and DreamerV3-torch's `Optimizer`,
called for the world model, the actor and the value on every training step). The copy waits for the GPU on
every call, as a returned `.cpu().numpy()` does; the finding is at the copy, the grad norm's `.item()` is the
other read."""

import torch

device = torch.device("cuda")


class Optimizer:
    def __init__(self, name, parameters, lr, clip, use_amp=False):
        self._name = name
        self._clip = clip
        self._opt = torch.optim.Adam(parameters, lr=lr)
        self._scaler = torch.cuda.amp.GradScaler(enabled=use_amp)

    def __call__(self, loss, params):
        metrics = {}
        metrics[f"{self._name}_loss"] = loss.detach().cpu().numpy()  # expect: PP501
        self._scaler.scale(loss).backward()
        self._scaler.unscale_(self._opt)
        norm = torch.nn.utils.clip_grad_norm_(params, self._clip)
        self._scaler.step(self._opt)
        self._scaler.update()
        self._opt.zero_grad()
        metrics[f"{self._name}_grad_norm"] = norm.item()
        return metrics
