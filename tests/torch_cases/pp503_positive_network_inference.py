"""An inference wrapper (not a network: no `forward`, no Module base) whose `inference` runs the prenet it
holds frame by frame without no_grad: still reported."""

import torch
import torch.nn as nn


class Prenet(nn.Module):
    def __init__(self, in_dim, hidden):
        super().__init__()
        self.layer = nn.Linear(in_dim, hidden)

    def forward(self, x):
        return torch.dropout(torch.relu(self.layer(x)), 0.5, True)


class Synthesizer:
    def __init__(self, n_mels, hidden, max_steps=1000):
        self.prenet = Prenet(n_mels, hidden)
        self.rnn = nn.LSTMCell(hidden, hidden)
        self.proj = nn.Linear(hidden, n_mels)
        self.gate = nn.Linear(hidden, 1)
        self.max_steps = max_steps

    def inference(self, memory, stop_threshold=0.5):
        decoder_input = memory.new_zeros(memory.size(0), self.proj.out_features)
        frames, state = [], None
        while True:
            decoder_input = self.prenet(decoder_input)  # expect: PP503
            state = self.rnn(decoder_input, state)
            frame = self.proj(state[0])
            frames.append(frame)
            if torch.sigmoid(self.gate(state[0])).item() > stop_threshold or len(frames) == self.max_steps:
                break
            decoder_input = frame
        return torch.stack(frames, 1)
