import torch
from torch.utils.data import DataLoader


def main(train_set, val_set, model, optimizer, criterion, args):
    device = torch.device("cuda")
    train_loader = DataLoader(train_set, batch_size=256, shuffle=True, num_workers=8, pin_memory=True)
    val_loader = DataLoader(val_set, batch_size=256, num_workers=8, pin_memory=args.pin)
    cpu_loader = DataLoader(val_set, batch_size=256, num_workers=8)
    for data, target in train_loader:
        data, target = data.to(device, non_blocking=True), target.to(device, non_blocking=True)
        optimizer.zero_grad()
        criterion(model(data), target).backward()
        optimizer.step()
    for data, _ in val_loader:
        model(data.to(device))
    return [len(batch) for batch in cpu_loader]
