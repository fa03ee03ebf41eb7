"""Defs that step an optimizer after a loop that is not a GAN's rounds: a whole epoch over the loader with
its own step (its reads after the loop run once per epoch), and a fine-tuning def whose inner loop steps
once per sample. Neither is one training step that a caller runs every batch."""

import torch


def train_epoch(model, optimizer, loader, config):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    optimizer.step()
    return {"loss": float(loss.item())}


def adapt(model, optimizer, samples, config):
    for sample in samples:
        loss = model(sample.cuda()).pow(2).mean()
        loss.backward()
        optimizer.step()
    optimizer.zero_grad()
    model(samples[0].cuda()).mean().backward()
    optimizer.step()
    return loss.item()
