# ruff: noqa: UP032
"""A depth-estimation worker prints its loss every step on the first process of each node, under the
ImageNet example's test `if not args.multiprocessing_distributed or (args.multiprocessing_distributed and
args.rank % ngpus_per_node == 0):` (hold-out 17's BTS `main_worker`): that process reads the loss every step."""

import numpy as np
import torch


def main_worker(gpu, ngpus_per_node, args, model, loader, criterion, optimizer):
    model = model.cuda(gpu)
    for epoch in range(args.num_epochs):
        for step, batch in enumerate(loader):
            optimizer.zero_grad()
            image = batch["image"].cuda(gpu, non_blocking=True)
            depth = batch["depth"].cuda(gpu, non_blocking=True)
            loss = criterion(model(image), depth)
            loss.backward()
            optimizer.step()
            if not args.multiprocessing_distributed or (
                args.multiprocessing_distributed and args.rank % ngpus_per_node == 0
            ):
                print("[{}][{}] loss: {:.12f}".format(epoch, step, loss))  # expect: PP501
                if np.isnan(loss.cpu().item()):
                    return -1
    torch.save(model.state_dict(), args.checkpoint)
