from torch import nn
from utils import paths
from utils.paths import build_targets


class Decoder(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask, durations=None, gen=False, targets=None):
        if gen:
            mask = paths.generate_path(durations, mask)
        z = self.proj(x).squeeze(1)
        if targets is not None:
            return (z - build_targets(targets, z.size(-1))).abs().mean()
        return z.squeeze(), mask
