# torch-fix94: clean twin of relayed_mover: the inner def makes its tensors on the device
import torch
import torch.nn.functional as F


def boundary_objective(pred, target, mask):
    reg = weighted_reg_term(pred, target * mask)
    return reg + F.l1_loss(pred, target)


def weighted_reg_term(pred, target):
    high = (target > 0.7).float()
    keep = torch.rand(target.shape, device=target.device)
    weights = high + (keep > 0.5).float()
    loss = F.mse_loss(pred * weights, target * weights)
    return torch.sum(loss * torch.ones_like(weights)) / torch.sum(weights)
