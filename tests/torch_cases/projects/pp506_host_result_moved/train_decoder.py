import torch as T
from utils.gpu import on_gpu


def train(decoder, loader, optimizer, start_id, steps):
    for batch, targets in loader:
        batch, targets = on_gpu(batch), on_gpu(targets)
        x_t = on_gpu(T.LongTensor(len(batch)).fill_(start_id))  # expect: PP506
        loss = 0
        for t in range(steps):
            teacher = on_gpu(T.rand(len(batch)) > 0.25).long()  # expect: PP506
            known = on_gpu(targets[:, t] > 0).long()
            x_t = teacher * targets[:, t] + (1 - teacher) * x_t
            logits = decoder(x_t)
            loss = loss + (logits.log_softmax(-1).gather(1, targets[:, t : t + 1]) * known).mean()
            x_t = logits.argmax(-1)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
