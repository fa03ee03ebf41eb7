"""PP501 (torch-fix127): a trainer gathers scenes one by one and runs `train_batch` (backward, optimizer
step, `return loss.item()`) in the branch of a remainder test that fires once a batch is full
(trajnetplusplusbaselines' LSTM and VAE trainers, hold-out 36): that branch is the training step, so the
def's read runs on every step."""

import numpy as np
import torch

device = torch.device("cuda")


class Trainer:
    def __init__(self, model, optimizer, criterion, batch_size):
        self.model = model.to(device)
        self.optimizer = optimizer
        self.criterion = criterion
        self.batch_size = batch_size

    def train(self, scenes):
        epoch_loss = 0.0
        batch_scene = []
        for scene_i, scene in enumerate(scenes):
            batch_scene.append(scene)
            if ((scene_i + 1) % self.batch_size == 0) or ((scene_i + 1) == len(scenes)):
                batch = torch.Tensor(np.concatenate(batch_scene, axis=1)).to(device)
                epoch_loss += self.train_batch(batch)
                batch_scene = []
        return epoch_loss

    def train_batch(self, batch):
        outputs = self.model(batch[:-1])
        loss = self.criterion(outputs, batch[1:])
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()  # expect: PP501
