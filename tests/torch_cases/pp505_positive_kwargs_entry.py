"""Loaders made from one `**loader_kwargs` dict literal whose `shuffle` entry is set again for the second
(sg2im's `build_loaders`): `pin_memory` is still the literal's (absent), so both are reported; a dict whose
`pin_memory` entry is set is trusted."""

import torch
from torch.utils.data import DataLoader


def build_loaders(args, train_dset, val_dset, collate_fn):
    loader_kwargs = {
        "batch_size": args.batch_size,
        "num_workers": 4,
        "shuffle": True,
        "collate_fn": collate_fn,
    }
    train_loader = DataLoader(train_dset, **loader_kwargs)  # expect: PP505 medium
    loader_kwargs["shuffle"] = args.shuffle_val
    val_loader = DataLoader(val_dset, **loader_kwargs)  # expect: PP505 medium
    return train_loader, val_loader


def build_pinned(args, train_dset):
    kwargs = {"batch_size": args.batch_size, "num_workers": 4}
    kwargs["pin_memory"] = torch.cuda.is_available()
    return DataLoader(train_dset, **kwargs)


def main(args, model, optimizer, train_dset, val_dset, collate_fn):
    train_loader, val_loader = build_loaders(args, train_dset, val_dset, collate_fn)
    pinned = build_pinned(args, train_dset)
    for _ in range(args.epochs):
        for batch in train_loader:
            batch = [tensor.cuda() for tensor in batch]
            optimizer.zero_grad()
            model(*batch).backward()
            optimizer.step()
        for batch in pinned:
            batch = [tensor.cuda() for tensor in batch]
            optimizer.zero_grad()
            model(*batch).backward()
            optimizer.step()
    with torch.no_grad():
        for batch in val_loader:
            model(*[tensor.cuda() for tensor in batch])
