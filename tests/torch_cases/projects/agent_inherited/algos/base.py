"""An actor-critic library's base algorithm: it places the model and the rollout buffers on the device it
is given (torch-ac's BaseAlgo, hold-out 14)."""

import torch


class BaseAlgo:
    def __init__(self, envs, acmodel, device, frames_per_proc):
        self.envs = envs
        self.acmodel = acmodel
        self.device = device
        self.acmodel.to(self.device)
        self.values = torch.zeros(frames_per_proc, len(envs), device=self.device)

    def collect_experiences(self):
        raise NotImplementedError
