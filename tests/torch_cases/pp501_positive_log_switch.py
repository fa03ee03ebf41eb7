"""Reads that run only when the run turns its log on (a TensorBoard or wandb switch): medium, the default log
may well be off (an actor-critic agent's update methods, a trainer's optional wandb metrics)."""

import torch.nn.functional as F


class Agent:
    def __init__(self, actor, critic, critic_opt, device, use_tb):
        self.actor = actor.to(device)
        self.critic = critic.to(device)
        self.critic_opt = critic_opt
        self.use_tb = use_tb

    def update_critic(self, obs, action, target_q):
        metrics = dict()
        q = self.critic(obs, action)
        critic_loss = F.mse_loss(q, target_q)
        if self.use_tb:
            metrics["critic_q"] = q.mean().item()  # expect: PP501 medium
            metrics["critic_loss"] = critic_loss.item()
        self.critic_opt.zero_grad(set_to_none=True)
        critic_loss.backward()
        self.critic_opt.step()
        return metrics

    def update_actor(self, obs, actor_opt):
        actor_loss = -self.critic(obs, self.actor(obs)).mean()
        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()
        return {"actor_loss": actor_loss.item()}  # expect: PP501


def train(args, model, loader, optimizer, criterion, run):
    for x, y in loader:
        x, y = x.cuda(), y.cuda()
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if args.use_wandb:
            run.log({"loss": loss.item()})  # expect: PP501 medium
