"""The training script moves nothing itself: the model it makes from the tagger class placed itself, so
the loss it reads every batch is on the GPU."""

import torch
from tagger import *  # noqa: F403


def train(batches, vocab_size, num_tags, num_epochs):
    model = RnnTagger(vocab_size, num_tags)  # noqa: F405
    optim = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(num_epochs):
        loss_sum = 0
        for x, y in batches:
            model.zero_grad()
            loss = model(x, y)
            loss.backward()
            optim.step()
            loss_sum += loss.item()  # expect: PP501
        print(epoch, loss_sum / len(batches))
