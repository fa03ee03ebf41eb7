"""Batch-norm statistics recomputed after training (cifar10-fast's batch_norm_post notebook, hold-out 16): the
model was put in eval mode earlier, then `model.train(True)` (or `mode=True`) before a pass over training
batches; that pass runs in train mode on purpose, so it is no evaluation."""

import torch


def evaluate(model, batches):
    model.eval()
    with torch.no_grad():
        return [model(batch).argmax(1) for batch in batches]


def recalibrate(model, train_batches):
    model.eval()
    print(evaluate(model, train_batches))
    model.train(True)
    for batch in train_batches:
        model(batch)
    model.train(False)
    return model


def recalibrate_keyword(model, train_batches):
    model.train(False)
    model.train(mode=True)
    for batch in train_batches:
        model(batch)
    model.eval()
