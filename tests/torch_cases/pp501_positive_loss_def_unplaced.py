"""torch-fix104: a loss def that returns the loss for its caller's backward and reads its terms into a log
dict (IQ-Learn's `iq_loss`, whose agent and device live in other modules), in a module that places
nothing on a GPU itself: the same per-step reads, at medium since the device is out of sight."""

import torch


def iq_loss(agent, current_q, current_v, next_v, batch):
    obs, next_obs, action, env_reward, done, is_expert = batch
    loss_dict = {}
    v0 = agent.getV(obs[is_expert.squeeze(1), ...]).mean()
    loss_dict["v0"] = v0.item()  # expect: PP501 medium
    y = (1 - done) * agent.gamma * next_v
    reward = (current_q - y)[is_expert]
    loss = -reward.mean()
    loss_dict["softq_loss"] = loss.item()
    value_loss = (current_v - y).mean()
    loss = loss + value_loss
    loss_dict["total_loss"] = loss.item()
    return loss, loss_dict


def reconstruction_loss(x_mean, x):
    return torch.nn.functional.mse_loss(x_mean, x)
