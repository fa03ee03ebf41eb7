"""PP501 (torch-fix127), silent: the def called under the remainder test only logs (no backward, no step:
not a training step), and the training step's read sits under a logging period of its own caller."""

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
        batch_scene = []
        for scene_i, scene in enumerate(scenes):
            batch_scene.append(scene)
            if (scene_i + 1) % self.batch_size == 0:
                batch = torch.Tensor(np.concatenate(batch_scene, axis=1)).to(device)
                self.train_batch(batch)
                batch_scene = []
            if (scene_i + 1) % 1000 == 0:
                self.report(scene)

    def train_batch(self, batch):
        outputs = self.model(batch[:-1])
        loss = self.criterion(outputs, batch[1:])
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.detach()

    def report(self, scene):
        with torch.no_grad():
            print(self.model(torch.Tensor(scene).to(device)).mean().item())
