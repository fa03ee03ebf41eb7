from torch import nn
from utils import vgg_preprocess


class VGG(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)

    def forward(self, x, preprocess=False):
        if preprocess:
            x = vgg_preprocess(x)
        return self.conv(x)
