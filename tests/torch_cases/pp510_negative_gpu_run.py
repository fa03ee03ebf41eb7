"""PP510 left alone: a wait under a test that can be false on a GPU run, a timed loop that trains
nothing, and a loop over a loader in a module that puts nothing on a GPU and trains nothing."""

import time

import torch


def train(model, optimizer, train_loader, args, max_steps):
    for _ in range(max_steps):
        x, y = train_loader.next_batch()
        x, y = x.to(args.device), y.to(args.device)
        logits, loss = model(x, y)
        loss.backward()
        optimizer.step()
        if args.profile == "cuda":
            torch.cuda.synchronize()  # (an option of the run: profiling)


def time_loading(dataset):
    # a benchmark of the data pipeline: the clock is the point, nothing trains
    for _batch in dataset:
        start = time.time()
        torch.cuda.synchronize()
        print(time.time() - start)


def count_batches(val_loader):
    n = 0
    for batch in val_loader:
        n += len(batch)
        torch.cuda.empty_cache()  # (nothing of this module is on a GPU: no cache to give back)
    return n


def fold_maps(checkpoints, build, inputs, device):
    # one model per fold, freed before the next: an empty_cache() so guarded is a clean-up between folds
    maps = []
    for checkpoint in checkpoints:
        model = build(checkpoint).to(device)
        maps.append(model(inputs).cpu())
        del model
        if device.type == "cuda":
            torch.cuda.empty_cache()
    return maps
