"""A factorization model's fit loop that moves its minibatches through the project's `gpu(tensor,
use_cuda)` helper and reads every minibatch's loss (spotlight's factorization/implicit.py, hold-out 15)."""

import numpy as np
import torch
import torch.optim as optim
from spotlight.torch_utils import gpu, minibatch, shuffle


class ImplicitFactorizationModel:
    def __init__(self, net, n_iter=10, batch_size=256, use_cuda=False):
        self._n_iter = n_iter
        self._batch_size = batch_size
        self._use_cuda = use_cuda
        self._net = gpu(net, self._use_cuda)
        self._optimizer = optim.Adam(self._net.parameters())

    def fit(self, user_ids, item_ids):
        for _ in range(self._n_iter):
            users, items = shuffle(user_ids, item_ids)
            user_ids_tensor = gpu(torch.from_numpy(users), self._use_cuda)
            item_ids_tensor = gpu(torch.from_numpy(items), self._use_cuda)
            epoch_loss = 0.0
            batches = minibatch(user_ids_tensor, item_ids_tensor, batch_size=self._batch_size)
            for batch_user, batch_item in batches:
                positive_prediction = self._net(batch_user, batch_item)
                loss = (1.0 - torch.sigmoid(positive_prediction)).mean()
                self._optimizer.zero_grad()
                loss.backward()
                self._optimizer.step()
                epoch_loss += loss.item()  # expect: PP501
            if np.isnan(epoch_loss):
                raise ValueError(f"Degenerate epoch loss: {epoch_loss}")
