"""Label vectors repeated by counts that are not sizes: `self.n_query` is also set from a list of the
episode's labels (data), and `self.shots` is never used as a size in the module (per-class shot counts, which
may come from the data). Both stay host data moved as it must be (pp506_positive_episode_labels.py)."""

import numpy as np
import torch
import torch.nn as nn
from methods.meta_template import MetaTemplate


class ProtoNet(MetaTemplate):
    def __init__(self, model_func, n_way, n_support):
        super().__init__(model_func, n_way, n_support)
        self.loss_fn = nn.CrossEntropyLoss()

    def set_forward(self, x):
        z_support, z_query = self.parse_feature(x)
        z_proto = z_support.view(self.n_way, self.n_support, -1).mean(1)
        z_query = z_query.contiguous().view(self.n_way * self.n_query, -1)
        return -torch.cdist(z_query, z_proto)

    def set_forward_loss(self, x):
        y_query = torch.from_numpy(np.repeat(range(self.n_way), self.n_query))
        y_query = y_query.cuda()
        y_shots = torch.from_numpy(np.repeat(range(self.n_way), self.shots)).cuda()
        scores = self.set_forward(x)
        return self.loss_fn(scores, y_query) + self.loss_fn(scores, y_shots)

    def train_loop(self, train_loader, optimizer):
        for x, labels in train_loader:
            self.n_query = labels.tolist()
            optimizer.zero_grad()
            loss = self.set_forward_loss(x)
            loss.backward()
            optimizer.step()
