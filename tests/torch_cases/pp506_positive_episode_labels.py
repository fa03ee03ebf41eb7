"""A few-shot method builds each episode's query labels on the host from its way and query counts
(`torch.from_numpy(np.repeat(range(self.n_way), self.n_query))`, then `.cuda()`) on every episode. The counts
are set by a base class in another module; this module uses them only as sizes (`range(...)`, `.view(...)`)
and stores `n_query` only from the batch's size: the labels are a grid torch could make on the device
(hold-out 21, the few-shot hypernetwork methods)."""

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
        y_query = y_query.cuda()  # expect: PP506 high
        scores = self.set_forward(x)
        return self.loss_fn(scores, y_query)

    def train_loop(self, train_loader, optimizer):
        for x, _ in train_loader:
            self.n_query = x.size(1) - self.n_support
            optimizer.zero_grad()
            loss = self.set_forward_loss(x)
            loss.backward()
            optimizer.step()
