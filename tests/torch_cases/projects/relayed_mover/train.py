import torch
from losses import boundary_objective


def train_epoch(loader, model, optimizer, mask):
    model.train()
    for inputs, target in loader:
        inputs, target = inputs.cuda(), target.cuda()
        pred = model(inputs)
        loss = boundary_objective(pred, target, mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return torch.cuda.max_memory_allocated()
