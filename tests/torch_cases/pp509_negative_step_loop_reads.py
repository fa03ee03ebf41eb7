import torch


class PPO:
    def __init__(self, policy, storage, optimizer, device):
        self.policy = policy
        self.storage = storage
        self.optimizer = optimizer
        self.device = device

    def optimize(self, epochs, mini_batch_size):
        entropy_list, corr_list = [], []
        self.policy.train()
        for _ in range(epochs):
            obs = self.storage.obs.to(self.device)
            ret = self.storage.ret.to(self.device)
            for obs_batch, ret_batch in zip(
                obs.split(mini_batch_size), ret.split(mini_batch_size), strict=True
            ):
                dist, value, ents = self.policy(obs_batch)
                loss = ((value - ret_batch) ** 2).mean() - dist.entropy().mean()
                corr = torch.corrcoef(torch.stack([value, ret_batch]))[0, 1]
                loss.backward()
                self.optimizer.step()
                self.optimizer.zero_grad()
                corr_list.append(corr.item())  # expect: PP501
                entropy_list.append(ents[0].item())
        return corr_list, entropy_list
