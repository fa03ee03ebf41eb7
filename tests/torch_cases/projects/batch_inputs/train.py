import torch
from model import Model
from train_util import get_input_from_batch

use_cuda = torch.cuda.is_available()


class Train:
    def __init__(self, batcher):
        self.batcher = batcher
        self.model = Model()
        if use_cuda:
            self.model = self.model.cuda()
        self.optimizer = torch.optim.Adagrad(self.model.parameters(), lr=0.15)

    def train_one_batch(self, batch):
        enc_batch, c_t_1, coverage = get_input_from_batch(batch, use_cuda)
        self.optimizer.zero_grad()
        loss = self.model(enc_batch, c_t_1, coverage)
        loss.backward()
        self.optimizer.step()
        return loss.detach()

    def train_iters(self, n_iters):
        for _ in range(n_iters):
            batch = self.batcher.next_batch()
            self.train_one_batch(batch)
