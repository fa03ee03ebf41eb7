"""A PPO agent module that places nothing on a device: the script that runs it moves the model (DeepRL
tutorials' agents/PPO.py, hold-out 13). Each minibatch step reads its losses on the host."""

import torch


class PPO:
    def __init__(self, model, optimizer, ppo_epoch=4, num_mini_batch=8):
        self.model = model
        self.optimizer = optimizer
        self.ppo_epoch = ppo_epoch
        self.num_mini_batch = num_mini_batch

    def compute_loss(self, sample):
        states, actions, returns = sample
        values, log_probs, entropy = self.model.evaluate(states, actions)
        value_loss = (returns - values).pow(2).mean()
        action_loss = -log_probs.mean()
        return value_loss + action_loss - 0.01 * entropy, action_loss, value_loss, entropy

    def update(self, rollout):
        value_loss_epoch = 0
        action_loss_epoch = 0
        for _ in range(self.ppo_epoch):
            for sample in rollout.feed_forward_generator(self.num_mini_batch):
                loss, action_loss, value_loss, entropy = self.compute_loss(sample)
                self.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), 0.5)
                self.optimizer.step()
                value_loss_epoch += value_loss.item()  # expect: PP501
                action_loss_epoch += action_loss.item()
        return value_loss_epoch, action_loss_epoch
