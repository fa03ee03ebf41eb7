import torch
from tracker import LossTracker


def train(model, optimizer, batches, epochs):
    model.cuda()
    tracker = LossTracker()
    for _ in range(epochs):
        for x in batches:
            x = x.cuda()
            optimizer.zero_grad()
            loss = model(x)
            tracker.update(dict(loss=loss))
            loss.backward()
            optimizer.step()
        print(torch.cuda.max_memory_allocated())
