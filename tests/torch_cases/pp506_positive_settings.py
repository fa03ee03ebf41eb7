"""NumPy settings turned into a tensor and copied to the GPU on every call (VoteNet's loss and proposal
head): an array read from the configuration object, and a parameter that `forward` fills with an array
only `__init__` sets."""

import numpy as np
import torch
import torch.nn as nn


def compute_box_loss(end_points, config):
    num_size_cluster = config.num_size_cluster
    mean_size_arr = config.mean_size_arr
    size_label = end_points["size_class_label"]
    one_hot = torch.cuda.FloatTensor(size_label.shape[0], size_label.shape[1], num_size_cluster).zero_()
    mean_sizes = torch.from_numpy(mean_size_arr.astype(np.float32)).cuda()  # expect: PP506 high
    return torch.sum(one_hot.unsqueeze(-1) * mean_sizes, 2).mean()


def decode_scores(net, end_points, num_size_cluster, mean_size_arr):
    residuals = net[:, :, :num_size_cluster]
    sizes = torch.from_numpy(mean_size_arr.astype(np.float32)).cuda()  # expect: PP506 high
    end_points["size_residuals"] = residuals * sizes.unsqueeze(0).unsqueeze(0)
    return end_points


class ProposalModule(nn.Module):
    def __init__(self, num_size_cluster, mean_size_arr):
        super().__init__()
        self.num_size_cluster = num_size_cluster
        self.mean_size_arr = mean_size_arr
        self.conv = nn.Conv1d(128, num_size_cluster, 1)

    def forward(self, features, end_points):
        net = self.conv(features).transpose(2, 1)
        return decode_scores(net, end_points, self.num_size_cluster, self.mean_size_arr)
