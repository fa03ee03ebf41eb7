"""A PPO subclass of the base algorithm: it moves nothing itself, its base placed the model, and each
minibatch step reads its losses on the host."""

import torch

from algos.base import BaseAlgo


class PPOAlgo(BaseAlgo):
    def __init__(self, envs, acmodel, device=None, frames_per_proc=128, epochs=4, lr=0.001):
        super().__init__(envs, acmodel, device, frames_per_proc)
        self.epochs = epochs
        self.optimizer = torch.optim.Adam(self.acmodel.parameters(), lr)

    def update_parameters(self, exps, batches):
        log_losses = []
        for _ in range(self.epochs):
            for inds in batches:
                sb = exps[inds]
                dist, value = self.acmodel(sb.obs)
                policy_loss = -(dist.log_prob(sb.action) * sb.advantage).mean()
                value_loss = (value - sb.returnn).pow(2).mean()
                loss = policy_loss + 0.5 * value_loss
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                log_losses.append(policy_loss.item())  # expect: PP501
        return {"policy_loss": sum(log_losses) / len(log_losses)}
