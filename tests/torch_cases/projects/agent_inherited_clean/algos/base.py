"""The same base algorithm training on the CPU: it places nothing on a device, so its subclass's reads wait
for nothing."""

import torch


class BaseAlgo:
    def __init__(self, envs, acmodel, device, frames_per_proc):
        self.envs = envs
        self.acmodel = acmodel
        self.device = device
        self.acmodel.train()
        self.values = torch.zeros(frames_per_proc, len(envs))

    def collect_experiences(self):
        raise NotImplementedError
