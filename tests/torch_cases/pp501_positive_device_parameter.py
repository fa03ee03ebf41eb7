"""PP501 (torch-fix129): a training loop whose batches a torch factory makes on a device the def is handed.
A knowledge-graph trainer builds each step's tensors with `torch.tensor(sub, dtype=torch.long,
device=device)`, `device` a parameter its caller fills with the configured CUDA device, and appends
`loss.item()` to the epoch's list (StarE's `loops/loops.py`, hold-out 40). The module moves nothing itself,
so the device is out of sight: medium."""

import torch

CPU = torch.device("cpu")


def training_loop(epochs, data, opt, train_fn, device: torch.device = CPU):
    train_loss = []
    for _epoch in range(epochs):
        per_epoch_loss = []
        for batch in data:
            opt.zero_grad()
            triples, labels = batch
            sub, rel = triples[:, 0], triples[:, 1]
            _sub = torch.tensor(sub, dtype=torch.long, device=device)
            _rel = torch.tensor(rel, dtype=torch.long, device=device)
            _labels = torch.tensor(labels, dtype=torch.float, device=device)
            pred = train_fn(_sub, _rel)
            loss = train_fn.loss(pred, _labels)
            per_epoch_loss.append(loss.item())  # expect: PP501 medium
            loss.backward()
            opt.step()
        train_loss.append(sum(per_epoch_loss) / len(per_epoch_loss))
    return train_loss
