import torch


class PPO:
    def __init__(self, policy, storage, optimizer, device):
        self.policy = policy
        self.storage = storage
        self.optimizer = optimizer
        self.device = device

    def optimize(self, epochs, mini_batch_size):
        best = []
        self.policy.train()
        for _ in range(epochs):
            obs = self.storage.obs.to(self.device)
            ret = self.storage.ret.to(self.device)
            for obs_batch, ret_batch in zip(
                obs.split(mini_batch_size), ret.split(mini_batch_size), strict=True
            ):
                dist, value, ents = self.policy(obs_batch)
                loss = torch.square(value - ret_batch).mean() - dist.entropy().mean()
                loss.backward()
                self.optimizer.step()
                self.optimizer.zero_grad()
                for i in range(value.size(0)):
                    best.append(value[i].item())  # expect: PP509 medium
        return best
