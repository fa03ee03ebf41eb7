"""A fit loop whose minibatches go through a wrapping helper given no CUDA switch: nothing says they are on
a GPU (the negative of pp501_positive_cuda_mover.py)."""

import torch
import torch.optim as optim
from utils import minibatch, to_var


class Model:
    def __init__(self, net, n_iter=10):
        self._n_iter = n_iter
        self._net = net
        self._optimizer = optim.Adam(self._net.parameters())

    def fit(self, users, items):
        for _ in range(self._n_iter):
            epoch_loss = 0.0
            for batch_user, batch_item in minibatch(to_var(users), to_var(items, requires_grad=False)):
                loss = (1.0 - torch.sigmoid(self._net(batch_user, batch_item))).mean()
                self._optimizer.zero_grad()
                loss.backward()
                self._optimizer.step()
                epoch_loss += loss.item()
            print(epoch_loss)
