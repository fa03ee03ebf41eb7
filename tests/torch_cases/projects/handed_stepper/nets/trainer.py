import torch.nn as nn


class DetectorTrainer(nn.Module):
    """Runs one training step of a detector; the fit helper gets an instance handed in."""

    def __init__(self, model, optimizer):
        super().__init__()
        self.model = model
        self.optimizer = optimizer

    def forward(self, images, boxes):
        cls_loss, box_loss = self.model(images, boxes)
        losses = [cls_loss, box_loss]
        return losses + [sum(losses)]

    def train_step(self, images, boxes, scaler=None):
        self.optimizer.zero_grad()
        losses = self.forward(images, boxes)
        if scaler is None:
            losses[-1].backward()
            self.optimizer.step()
        else:
            scaler.scale(losses[-1]).backward()
            scaler.step(self.optimizer)
            scaler.update()
        return losses
