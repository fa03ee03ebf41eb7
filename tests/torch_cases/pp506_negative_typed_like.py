"""torch-fix44: a padding made only when two sizes differ (DrQA's RNN encoder pads its output back to the
mask's length, `if output.size(1) != x_mask.size(1):`; its batches never differ), a type given by name as a
string of the host type, and a tensor made on the device before it is typed."""

import torch
import torch.nn as nn


class StackedBRNN(nn.Module):
    def __init__(self, rnn):
        super().__init__()
        self.rnn = rnn

    def forward(self, x, x_mask):
        output = self.rnn(x)[0].transpose(0, 1)
        if output.size(1) != x_mask.size(1):
            padding = torch.zeros(output.size(0), x_mask.size(1) - output.size(1), output.size(2)).type(
                output.data.type()
            )
            output = torch.cat([output, padding], 1)
        ones = torch.ones(output.size(0), 1, device=output.device).type(output.type())
        return output * ones, torch.zeros(2).type("torch.FloatTensor")
