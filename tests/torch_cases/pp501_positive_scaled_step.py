import torch
import torch.nn as nn


# A learner whose step runs AMP's scaled backward and hands the loss back; the loop tests it for NaN.
class Learner:
    def __init__(self, model, optimizer, loader):
        self.model = model.cuda()
        self.optimizer = optimizer
        self.loader = loader
        self.scaler = torch.cuda.amp.GradScaler()
        self.loss_fn = nn.L1Loss()

    def train(self):
        for features in self.loader:
            features = {k: v.cuda() for k, v in features.items()}
            loss = self.train_step(features)
            if torch.isnan(loss).any():  # expect: PP501
                raise RuntimeError("NaN loss")

    def train_step(self, features):
        self.optimizer.zero_grad()
        with torch.autocast("cuda"):
            predicted = self.model(features["audio"])
            loss = self.loss_fn(predicted, features["target"])
        self.scaler.scale(loss).backward()
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss
