import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn import Parameter


class MultiFeatureGRUCell(nn.Module):
    """A GRU cell with one input weight per feature modality (motion, appearance, audio)."""

    def __init__(self, input_size, feats_size, hidden_size):
        super().__init__()
        self.weight_ih = Parameter(torch.Tensor(3 * hidden_size, input_size))
        self.weight_fh = nn.ParameterList([Parameter(torch.Tensor(2 * hidden_size, f)) for f in feats_size])
        self.bias_fh = nn.ParameterList([Parameter(torch.Tensor(2 * hidden_size)) for _ in feats_size])

    def step(self, input, feats, hx, weight_ih, weight_fh, bias_fh):
        gi = F.linear(input, weight_ih)
        gf = []
        for i in range(len(feats)):
            gf.append(F.linear(feats[i], weight_fh[i], bias_fh[i]))
        gf = torch.stack(gf, dim=0).sum(0)
        return torch.sigmoid(gi[:, : gf.size(1)] + gf) * hx

    def forward(self, input, feats, hx):
        return self.step(input, feats, hx, self.weight_ih, self.weight_fh, self.bias_fh)


def encode(cell, video_feats, hidden):
    feats = torch.cat([video_feats, video_feats], dim=-1)
    return cell(video_feats, feats, hidden)


def tensor2im(input_image):
    mean = [0.5071, 0.4866, 0.4409]
    std = [0.2009, 0.1984, 0.2023]
    image_numpy = input_image.cpu().float().numpy()
    for i in range(len(mean)):
        image_numpy[i] = image_numpy[i] * std[i] + mean[i]
    return (np.transpose(image_numpy, (1, 2, 0)) * 255).astype(np.uint8)


def normalise(batch):
    mean = torch.mean(batch, dim=0)
    return batch - mean


def train(cell, loader, optimizer, device):
    for video, target in loader:
        video, target = video.to(device), target.to(device)
        hidden = torch.zeros_like(target)
        out = encode(cell, video, hidden)
        loss = F.mse_loss(out, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
