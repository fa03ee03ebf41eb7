import torch
from torch.utils.data import DataLoader

device = torch.device("cuda")
train_dataset = torch.utils.data.TensorDataset(
    torch.randint(0, 3, (1000, 12)), torch.randint(0, 3, (1000, 12))
)

# one batch peeked at in a notebook cell: copied once
loader = DataLoader(train_dataset, batch_size=10, num_workers=0, drop_last=False)
x, y = next(iter(loader))
x = x.to(device)


def eval_split(model, dataset, max_batches):
    results = []
    loader = DataLoader(dataset, batch_size=100, num_workers=0, drop_last=False)  # expect: PP505 medium
    for b, (x, y) in enumerate(loader):
        x = x.to(device)
        y = y.to(device)
        cat = model.generate(x[:, :6], 6, do_sample=False)
        results.append((y[:, -6:] == cat[:, -6:]).all(1).cpu())
        if max_batches is not None and b + 1 >= max_batches:
            break
    return torch.cat(results).float().mean()
