"""torch-fix153: a constant attribute copied to the device on every forward by the route it takes there.
- TET's normalisation: `__init__` keeps `torch.tensor(mean)` (converted only when not already a tensor) as a plain
  attribute, and `forward` hands it to a module-level helper whose `mean.to(tensor.device)` runs every call (the
  device test is true every time: the attribute is never replaced);
- the same attribute moved in `forward` itself;
- ConvLSTM's cells held under generated names (`setattr(self, name, cell)`), whose `init_hidden` the forward
  reaches by `getattr(self, name)` and which makes `torch.zeros(...)` on the host and `.cuda()`s it."""

import torch
import torch.nn as nn
from torch.autograd import Variable


class TensorNormalization(nn.Module):
    def __init__(self, mean, std):
        super().__init__()
        if not isinstance(mean, torch.Tensor):
            mean = torch.tensor(mean)
        if not isinstance(std, torch.Tensor):
            std = torch.tensor(std)
        self.mean = mean
        self.std = std

    def forward(self, x):
        return normalizex(x, self.mean, self.std)


def normalizex(tensor, mean, std):
    mean = mean[None, :, None, None]
    std = std[None, :, None, None]
    if mean.device != tensor.device:
        mean = mean.to(tensor.device)  # expect: PP506 medium
        std = std.to(tensor.device)  # expect: PP506 medium
    return tensor.sub(mean).div(std)


class Standardize(nn.Module):
    def __init__(self, mean):
        super().__init__()
        if not isinstance(mean, torch.Tensor):
            mean = torch.as_tensor(mean)
        self.mean = mean

    def forward(self, x):
        return x - self.mean.to(x.device)  # expect: PP506 medium


class ConvLSTMCell(nn.Module):
    def __init__(self, input_channels, hidden_channels):
        super().__init__()
        self.wx = nn.Conv2d(input_channels, 4 * hidden_channels, 3, 1, 1)
        self.wh = nn.Conv2d(hidden_channels, 4 * hidden_channels, 3, 1, 1, bias=False)

    def forward(self, x, h, c):
        i, f, g, o = torch.split(self.wx(x) + self.wh(h), h.size(1), dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        return torch.sigmoid(o) * torch.tanh(c), c

    def init_hidden(self, batch_size, hidden, shape):
        return (
            Variable(torch.zeros(batch_size, hidden, shape[0], shape[1])).cuda(),  # expect: PP506 high
            Variable(torch.zeros(batch_size, hidden, shape[0], shape[1])).cuda(),  # expect: PP506 high
        )


class ConvLSTM(nn.Module):
    def __init__(self, input_channels, hidden_channels, step=5):
        super().__init__()
        self.input_channels = [input_channels, *hidden_channels]
        self.hidden_channels = hidden_channels
        self.step = step
        for i in range(len(hidden_channels)):
            setattr(self, f"cell{i}", ConvLSTMCell(self.input_channels[i], hidden_channels[i]))

    def forward(self, inputs):
        states = []
        for step in range(self.step):
            x = inputs
            for i in range(len(self.hidden_channels)):
                name = f"cell{i}"
                if step == 0:
                    b, _, height, width = x.size()
                    states.append(
                        getattr(self, name).init_hidden(b, self.hidden_channels[i], (height, width))
                    )
                h, c = states[i]
                x, c = getattr(self, name)(x, h, c)
                states[i] = (x, c)
        return x
