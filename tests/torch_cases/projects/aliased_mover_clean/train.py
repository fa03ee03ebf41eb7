import torch
import torch.nn.functional as F
from tools.gpu import as_gpu as gpu


def train(model, loader, optimizer, epochs):
    model.train()
    for _epoch in range(epochs):
        for images, _targets in loader:
            images = gpu(images)
            logits = model(images)
            real = gpu(torch.ones(logits.size(0)).long())
            loss = F.cross_entropy(logits, real)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
