"""PP501 (torch-fix123), the silent neighbours of a host copy in `forward`: lengths copied for
`pack_padded_sequence` (a size the call needs on the host), a copy under a test-time `if not self.training:`
or a debug switch, a copy of a tensor a torch factory just made on the host, and a module moved off and back."""

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

device = torch.device("cuda")


class RNN(nn.Module):
    def __init__(self, debug=False):
        super().__init__()
        self.rnn = nn.LSTM(32, 64, batch_first=True)
        self.fc = nn.Linear(64, 2)
        self.debug = debug

    def forward(self, x, seq_lengths):
        packed = pack_padded_sequence(x, seq_lengths.cpu().numpy(), batch_first=True)
        out, _ = self.rnn(packed)
        out, _ = pad_packed_sequence(out, batch_first=True)
        logits = self.fc(out[:, -1])
        if not self.training:
            self.last_predictions = logits.argmax(1).cpu().numpy()
        if self.debug:
            print(logits.detach().cpu().numpy())
        noise = torch.rand(4).cpu().numpy()
        self.fc.cpu()
        self.fc.to(device)
        return logits * float(noise[0])


def build():
    """Placed here and trained by a script of another module (out of sight)."""
    return RNN().to(device)
