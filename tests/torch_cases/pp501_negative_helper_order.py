"""PP501 (torch-fix65), clean twin of pp501_positive_helper_order.py: a step helper that returns its loss
detached and reads the reward only when a switch asks for it is judged as before: the switch's read alone does
not make the finding."""

import torch  # noqa: F401


class Trainer:
    def __init__(self, model, optimizer, opt):
        self.model = model.cuda()
        self.optimizer = optimizer
        self.opt = opt

    def train_one_batch(self, batch, step):
        mle_loss = self.model(batch.cuda())
        self.optimizer.zero_grad()
        mle_loss.backward()
        self.optimizer.step()
        if step % 1000 == 0:
            print(mle_loss.item())
        return mle_loss.detach()

    def train_iters(self, batcher, max_iterations):
        total = 0
        for step in range(max_iterations):
            total += self.train_one_batch(batcher.next_batch(), step)
        return total
