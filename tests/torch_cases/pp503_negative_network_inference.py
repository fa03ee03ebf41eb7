"""A decoder network's own autoregressive inference routine: like its `forward`, it leaves no_grad to
whoever calls it (a synthesis script decorated with `@torch.no_grad()` in another module)."""

import torch
import torch.nn as nn


class Prenet(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.layer = nn.Linear(in_dim, hidden)

    def forward(self, x):
        return torch.dropout(torch.relu(self.layer(x)), 0.5, True)


class Decoder(nn.Module):
    def __init__(self, n_mels, hidden, max_steps=1000):
        super().__init__()
        self.prenet = Prenet(n_mels, hidden)
        self.rnn = nn.LSTMCell(hidden, hidden)
        self.proj = nn.Linear(hidden, n_mels)
        self.gate = nn.Linear(hidden, 1)
        self.max_steps = max_steps

    def forward(self, memory, targets):
        frames = []
        state = None
        for frame in targets.unbind(1):
            state = self.rnn(self.prenet(frame), state)
            frames.append(self.proj(state[0]))
        return torch.stack(frames, 1)

    def inference(self, memory, stop_threshold=0.5):
        decoder_input = memory.new_zeros(memory.size(0), self.proj.out_features)
        frames, state = [], None
        while True:
            decoder_input = self.prenet(decoder_input)
            state = self.rnn(decoder_input, state)
            frame = self.proj(state[0])
            frames.append(frame)
            if torch.sigmoid(self.gate(state[0])).item() > stop_threshold or len(frames) == self.max_steps:
                break
            decoder_input = frame
        return torch.stack(frames, 1)
