"""Options read in a loop that changes them, or weights that come with each batch: the tensor is not the
same on every step (a curriculum that edits `args.weights`, a batch's own `meta.weights`)."""

import torch
import torch.nn.functional as F


def train(model, optimizer, loader, args):
    model.cuda()
    for mix, sources, meta in loader:
        mix, sources = mix.cuda(), sources.cuda()
        args.weights = [w * 0.99 for w in args.weights]
        weights = torch.tensor(args.weights).to(sources)
        picked = torch.tensor(meta.weights).to(sources)
        loss = (F.l1_loss(model(mix), sources, reduction="none").mean((0, 2, 3)) * weights).sum()
        loss = loss + picked.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
