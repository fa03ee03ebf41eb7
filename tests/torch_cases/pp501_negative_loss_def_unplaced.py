"""torch-fix104: a loss def in a module that places nothing, whose reads run only under a logging switch or
whose value it returns is a number: nothing to report."""

import torch


def iq_loss(agent, current_q, next_v, batch, log=False):
    obs, done, is_expert = batch
    loss_dict = {}
    loss = -(current_q - (1 - done) * agent.gamma * next_v)[is_expert].mean()
    if log:
        loss_dict["softq_loss"] = loss.item()
    return loss, loss_dict


def accuracy_loss(pred, target):
    return torch.mean((pred.argmax(1) != target).float()).item()
