# ruff: noqa: UP032
"""A remainder test that times the log as well as picking the process (`args.rank % ngpus_per_node == 0 and
step % args.log_freq == 0`), silent: the print runs every log_freq steps."""

import torch


def main_worker(gpu, ngpus_per_node, args, model, loader, criterion, optimizer):
    model = model.cuda(gpu)
    for step, batch in enumerate(loader):
        optimizer.zero_grad()
        loss = criterion(model(batch["image"].cuda(gpu)), batch["depth"].cuda(gpu))
        loss.backward()
        optimizer.step()
        if args.rank % ngpus_per_node == 0 and step % args.log_freq == 0:
            print("[{}] loss: {:.12f}".format(step, loss))
    torch.save(model.state_dict(), args.checkpoint)
