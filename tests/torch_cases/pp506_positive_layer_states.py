"""A recurrent video model's `forward` makes each layer's zero hidden and cell state on the host and copies it
to the device in a loop over its layers (`for i in range(self.num_layers):`), on every forward (PredRNN,
hold-out 21). The loop runs a count the model holds, the same on every call, so the copy takes the level of
the `forward` it runs in, as the memory made after the loop does.
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import torch
import torch.nn as nn


class RNN(nn.Module):
    def __init__(self, num_layers, num_hidden, configs):
        super().__init__()
        self.configs = configs
        self.num_layers = num_layers
        self.num_hidden = num_hidden
        self.cells = nn.ModuleList([nn.Conv2d(n, n, 3, padding=1) for n in num_hidden])

    def forward(self, frames):
        batch, height, width = frames.shape[0], frames.shape[3], frames.shape[4]
        device = self.configs.device
        h_t, c_t = [], []
        for i in range(self.num_layers):
            zeros = torch.zeros([batch, self.num_hidden[i], height, width]).to(device)  # expect: PP506 high
            h_t.append(zeros)
            c_t.append(zeros)
        memory = torch.zeros([batch, self.num_hidden[0], height, width]).to(device)  # expect: PP506 high
        for t in range(frames.shape[1]):
            h_t[0] = self.cells[0](frames[:, t] + h_t[0] + memory)
            for i in range(1, self.num_layers):
                h_t[i] = self.cells[i](h_t[i - 1] + c_t[i])
        return h_t[-1]
