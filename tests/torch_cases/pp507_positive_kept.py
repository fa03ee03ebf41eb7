import torch
from torch.optim import SGD


def generate(model, target_class, iterations=150):
    image = torch.rand(1, 3, 224, 224, requires_grad=True)
    for _ in range(1, iterations):
        optimizer = SGD([image], lr=6)  # expect: PP507 low
        class_loss = -model(image)[0, target_class]
        model.zero_grad()
        class_loss.backward()
        optimizer.step()
    return image.detach()
