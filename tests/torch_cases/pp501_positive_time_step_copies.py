"""PP501 (torch-fix151): a host copy at every time step of a recurrent `forward`. The spiking RNNs of hold-out
49 (byin-cwi's SHD, GSC and ECG networks) unroll the sequence in `forward` (`for i in range(seq_num):` with
`seq_num` from the input's shape, or `range(max_iters)`) and append each step's layer state as a NumPy copy,
so every training forward waits for the GPU once per time step: `medium`."""

import torch
import torch.nn as nn

device = torch.device("cuda")


class SpikingRNN(nn.Module):
    def __init__(self, n_in=700, n_hidden=128, n_out=20):
        super().__init__()
        self.i2h = nn.Linear(n_in, n_hidden)
        self.h2h = nn.Linear(n_hidden, n_hidden)
        self.h2o = nn.Linear(n_hidden, n_out)

    def forward(self, x):
        batch_size, seq_num, _ = x.shape
        spike = torch.zeros(batch_size, self.h2h.in_features, device=device)
        output = 0
        hidden_spikes = []
        for i in range(seq_num):
            mem = self.i2h(x[:, i, :]) + self.h2h(spike)
            spike = (mem > 0.5).float()
            output = output + self.h2o(spike)
            hidden_spikes.append(spike.data.cpu().numpy())  # expect: PP501 medium
        return output, hidden_spikes


class FiringRates(nn.Module):
    def __init__(self, n_in=40, n_hidden=64, max_iters=100):
        super().__init__()
        self.dense = nn.Linear(n_in, n_hidden)
        self.max_iters = max_iters

    def forward(self, x):
        rates = []
        out = 0
        for t in range(self.max_iters):
            spike = torch.sigmoid(self.dense(x[:, t % x.size(1)]))
            out = out + spike
            rates.append(spike.detach().cpu().numpy().mean())  # expect: PP501 medium
        return out, rates


model = SpikingRNN().to(device)
