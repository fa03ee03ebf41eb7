# torch-fix17 near misses: a cycled loader that is pinned, a `**params` dict that pins and has workers, a
# `**kwargs` whose dict is not a literal, another def's dict, and a dict of loaders whose training entry pins
import torch
from torch.utils.data import DataLoader
from tqdm import tqdm
from utils import cycle, loader_options

device = torch.device("cuda")
model = torch.load("unet.pt").to(device)
optimizer = torch.optim.Adam(model.parameters())
params = {"batch_size": 16, "shuffle": True, "num_workers": 4, "pin_memory": True}


def train_cycled(train_dataset, iterations):
    train_loader = cycle(DataLoader(train_dataset, batch_size=128, num_workers=2, pin_memory=True))
    for _iteration in range(iterations):
        x, y = next(train_loader)
        loss = model(x.to(device, non_blocking=True), y.to(device, non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_params(pairs, n_epochs):
    pair_loader = DataLoader(pairs, **params)
    for _epoch in range(n_epochs):
        for a, b in pair_loader:
            loss = model(a.to(device), b.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def make_options(args):
    kwargs = {"batch_size": args.batch_size}
    return kwargs


def train_kwargs(pairs, args):
    kwargs = loader_options(args)
    pair_loader = DataLoader(pairs, **kwargs)
    for a, b in pair_loader:
        loss = model(a.to(device), b.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_dict(train_set, val_set, n_epochs):
    loaders = {
        "train": DataLoader(train_set, batch_size=64, shuffle=True, num_workers=4, pin_memory=True),
        "val": DataLoader(val_set, batch_size=64),
    }
    for _epoch in range(n_epochs):
        for x, y in loaders["train"]:
            loss = model(x.to(device), y.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            for x, y in loaders["val"]:
                print(model(x, y).sum())


def train_mnist(dataset1, use_cuda):
    train_kwargs = {"batch_size": 64}
    if use_cuda:
        train_kwargs.update({"num_workers": 1, "pin_memory": True, "shuffle": True})
    train_loader = DataLoader(dataset1, **train_kwargs)
    for data, target in train_loader:
        loss = model(data.to(device), target.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def check_shapes(train_tensor, build):
    for code_size in [1, 8, 32, 128, 512, 1024]:
        help_tensor = next(iter(DataLoader(train_tensor, batch_size=32)))
        encoder_out = build(code_size).cuda()(help_tensor.cuda())
        assert encoder_out.shape[1] == code_size


# torch-fix23: the same conditional progress bar over a pinned loader
def run_epoch(split, train_dataset, test_dataset, config):
    is_train = split == "train"
    data = train_dataset if is_train else test_dataset
    loader = DataLoader(data, batch_size=config.batch_size, num_workers=4, pin_memory=True)
    pbar = tqdm(enumerate(loader), total=len(loader)) if is_train else enumerate(loader)
    for _it, (x, y) in pbar:
        x = x.to(device, non_blocking=True)
        y = y.to(device, non_blocking=True)
        logits, loss = model(x, y)
        model.zero_grad()
        loss.backward()
        optimizer.step()


# torch-fix23: a loader that holds the whole dev set in one batch (cnn-text-classification): one copy a pass
def evaluate(dev_dataset, collate_fn):
    dev_iter = DataLoader(dev_dataset, batch_size=len(dev_dataset), shuffle=False, collate_fn=collate_fn)
    with torch.no_grad():
        for feature, target in dev_iter:
            logits = model(feature.to(device))
            loss = torch.nn.functional.cross_entropy(logits, target.to(device))
    return loss.item()
