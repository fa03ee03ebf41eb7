"""A loop over the pieces a helper returns from `torch.split` (TrajGRU's flow fields, hold-out 13): a few
whole-batch tensors, one warp each, not a tensor's elements."""

import torch
import torch.nn.functional as F
from torch import nn


def warp(x, flow):
    grid = flow.permute(0, 2, 3, 1)
    return F.grid_sample(x, grid, align_corners=False)


class TrajCell(nn.Module):
    def __init__(self, channels, links=5):
        super().__init__()
        self.flows_conv = nn.Conv2d(channels, links * 2, 5, padding=2)
        self.ret = nn.Conv2d(channels * links, channels * 3, 1)

    def _flow_generator(self, states):
        flows = self.flows_conv(torch.tanh(states))
        flows = torch.split(flows, 2, dim=1)
        return flows

    def forward(self, inputs, states, seq_len):
        outputs = []
        prev_h = states
        for i in range(seq_len):
            flows = self._flow_generator(prev_h)
            wrapped = []
            for j in range(len(flows)):
                flow = flows[j]
                wrapped.append(warp(prev_h, -flow))
            h2h = self.ret(torch.cat(wrapped, dim=1))
            prev_h = torch.tanh(h2h[:, : prev_h.size(1)] + inputs[i])
            outputs.append(prev_h)
        return torch.stack(outputs)
