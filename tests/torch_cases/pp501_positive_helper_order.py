"""PP501 (torch-fix65): the finding for a step helper's reads names the read that runs whatever the run's
switches say (`return mle_loss.item()`), not one in a branch a switch may leave off (the summariser's RL
reward read under `if self.opt.train_rl == "yes":`)."""

import torch  # noqa: F401


class Trainer:
    def __init__(self, model, optimizer, opt):
        self.model = model.cuda()
        self.optimizer = optimizer
        self.opt = opt

    def train_one_batch(self, batch):
        mle_loss = self.model(batch.cuda())
        if self.opt.train_rl == "yes":
            reward = self.model.reward(batch.cuda())
            batch_reward = reward.mean().item()
        else:
            batch_reward = 0
        self.optimizer.zero_grad()
        mle_loss.backward()
        self.optimizer.step()
        return mle_loss.item(), batch_reward  # expect: PP501 high

    def train_iters(self, batcher, max_iterations):
        total = 0
        for _ in range(max_iterations):
            mle_loss, reward = self.train_one_batch(batcher.next_batch())
            total += mle_loss + reward
        return total
