import torch
from torch.utils.data import DataLoader

device = torch.device("cuda")


def get_data_loader(dataset, batch_size, shuffle=False):
    data_loader = DataLoader(  # expect: PP504
        dataset=dataset, batch_size=batch_size, shuffle=shuffle, pin_memory=True
    )
    return data_loader


def train_fn(model, data_loader, optimizer, criterion):
    model.train()
    for batch in data_loader:
        src, trg = batch["src"].to(device), batch["trg"].to(device)
        optimizer.zero_grad()
        criterion(model(src), trg).backward()
        optimizer.step()


def run(model, train_data, images, optimizer, criterion):
    train_data_loader = get_data_loader(train_data, 128, shuffle=True)
    for _ in range(10):
        train_fn(model, train_data_loader, optimizer, criterion)
    # the notebook's second loader of the same name is the one that trains
    train_loader = DataLoader(images, batch_size=5000, num_workers=2, pin_memory=True)
    print(len(train_loader))
    train_loader = DataLoader(images, batch_size=64, shuffle=True, pin_memory=True)  # expect: PP504
    for x, y in train_loader:
        optimizer.zero_grad()
        criterion(model(x.to(device)), y.to(device)).backward()
        optimizer.step()
