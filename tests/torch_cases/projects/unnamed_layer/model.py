import torch.nn as nn
from layers import SincFilters


class SpeakerNet(nn.Module):
    def __init__(self, n_filt=80, filt_dim=251, n_classes=462):
        super().__init__()
        self.filters = SincFilters(n_filt, filt_dim)
        self.out = nn.Linear(n_filt, n_classes)

    def forward(self, wav):
        return self.out(self.filters(wav).mean(-1))
