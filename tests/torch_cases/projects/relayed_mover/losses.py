# torch-fix94: the training loop calls `boundary_objective`, which runs `weighted_reg_term`; only the inner def makes a
# host tensor and moves it, on every step
import numpy as np
import torch
import torch.nn.functional as F


def boundary_objective(pred, target, mask):
    reg = weighted_reg_term(pred, target * mask)
    return reg + F.l1_loss(pred, target)


def weighted_reg_term(pred, target):
    high = (target > 0.7).float()
    keep = torch.Tensor(np.random.rand(*target.shape)).cuda()  # expect: PP506
    weights = high + (keep > 0.5).float()
    loss = F.mse_loss(pred * weights, target * weights)
    return torch.sum(loss * torch.ones(*weights.shape).cuda()) / torch.sum(weights)  # expect: PP506
