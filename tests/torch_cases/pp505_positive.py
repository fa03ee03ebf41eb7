import torch
from torch.utils.data import DataLoader


def main(train_set, val_set, model, optimizer, criterion, use_cuda=True):
    device = torch.device("cuda" if use_cuda else "cpu")
    train_loader = DataLoader(train_set, batch_size=256, shuffle=True, num_workers=8)  # expect: PP505 medium
    val_loader = DataLoader(val_set, batch_size=256, num_workers=8, pin_memory=False)  # expect: PP505 medium
    for _epoch in range(90):
        for _batch_idx, (data, target) in enumerate(train_loader):
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            criterion(model(data), target).backward()
            optimizer.step()
        with torch.no_grad():
            for batch in val_loader:
                model(batch[0].cuda())
