# torch-fix17: loaders drawn through a wrapper that goes round them (`cycle(DataLoader(...))`, torchdiffeq's
# inf_generator with `__next__()`), options in a `**params` dict, and a dict literal of loaders
import torch
from torch.utils.data import DataLoader
from tqdm import tqdm
from utils import cycle

device = torch.device("cuda")
model = torch.load("unet.pt").to(device)
optimizer = torch.optim.Adam(model.parameters())


def inf_generator(iterable):
    iterator = iterable.__iter__()
    while True:
        try:
            yield iterator.__next__()
        except StopIteration:
            iterator = iterable.__iter__()


def train_cycled(train_dataset, iterations):
    train_loader = cycle(DataLoader(train_dataset, batch_size=128, num_workers=2))  # expect: PP505 medium
    for _iteration in range(iterations):
        x, y = next(train_loader)
        loss = model(x.to(device), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_generated(train_set, n_iterations):
    train_loader = DataLoader(train_set, batch_size=128, shuffle=True, num_workers=2)  # expect: PP505 medium
    data_gen = inf_generator(train_loader)
    for _itr in range(n_iterations):
        optimizer.zero_grad()
        x, y = data_gen.__next__()
        x, y = x.to(device), y.to(device)
        loss = model(x, y)
        loss.backward()
        optimizer.step()


def train_params(pairs, n_epochs):
    params = {"batch_size": 16, "shuffle": True}
    pair_loader = DataLoader(pairs, **params)  # expect: PP504  # expect: PP505 medium
    for _epoch in range(n_epochs):
        for a, b in pair_loader:
            loss = model(a.to(device), b.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def train_dict(train_set, val_set, n_epochs):
    loaders = {
        "train": DataLoader(train_set, batch_size=64, shuffle=True, num_workers=4),  # expect: PP505 medium
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


# torch-fix23: the loop's progress bar is bound to a conditional expression (minGPT's trainer)
def run_epoch(split, train_dataset, test_dataset, config):
    is_train = split == "train"
    model.train(is_train)
    data = train_dataset if is_train else test_dataset
    loader = DataLoader(data, batch_size=config.batch_size, num_workers=4)  # expect: PP505 medium
    pbar = tqdm(enumerate(loader), total=len(loader)) if is_train else enumerate(loader)
    for _it, (x, y) in pbar:
        x = x.to(device)
        y = y.to(device)
        with torch.set_grad_enabled(is_train):
            logits, loss = model(x, y)
        if is_train:
            model.zero_grad()
            loss.backward()
            optimizer.step()
