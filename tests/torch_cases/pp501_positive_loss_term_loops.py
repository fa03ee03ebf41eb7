"""PP501 (torch-fix129): a loss def that reads each configured term on the host inside a loop over the
model's own list of terms. A trajectory model's `compute_loss` sums `for loss_name in self.loss_names:`
and stores `loss.item()` and `loss_unweighted.item()` of every term in dicts for the log (AgentFormer's
`model/agentformer.py` and `model/dlow.py`, hold-out 30): the trainer backpropagates the total every step,
so each read waits for the GPU once per term per step."""

import torch
import torch.nn as nn


def mse_loss(data, cfg):
    diff = data["pred"] - data["gt"]
    loss_unweighted = diff.pow(2).sum()
    return loss_unweighted * cfg["weight"], loss_unweighted


loss_func = {"mse": mse_loss}


class TrajModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.device = torch.device("cuda")
        self.net = nn.Linear(2, 2).to(self.device)
        self.loss_cfg = cfg["loss_cfg"]
        self.loss_names = list(self.loss_cfg.keys())
        self.data = {}

    def forward(self, x, gt):
        self.data["pred"] = self.net(x.to(self.device))
        self.data["gt"] = gt.to(self.device)
        return self.data["pred"]

    def compute_loss(self):
        total_loss = 0
        loss_dict = {}
        loss_unweighted_dict = {}
        for loss_name in self.loss_names:
            loss, loss_unweighted = loss_func[loss_name](self.data, self.loss_cfg[loss_name])
            total_loss += loss
            loss_dict[loss_name] = loss.item()  # expect: PP501
            loss_unweighted_dict[loss_name] = loss_unweighted.item()
        return total_loss, loss_dict, loss_unweighted_dict
