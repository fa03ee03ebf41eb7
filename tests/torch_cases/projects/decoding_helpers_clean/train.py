import torch
from torch.utils.data import DataLoader

from data import get_training_set


def main(args, model, optimizer, criterion):
    device = torch.device("cuda")
    train_set = get_training_set(args.root)
    loader = DataLoader(train_set, num_workers=4, batch_size=args.batch_size, shuffle=True)  # expect: PP505
    probe = DataLoader(get_training_set(args.root), batch_size=1, num_workers=4)  # expect: PP505
    model.to(device)
    for _ in range(args.epochs):
        for a, b in loader:
            a, b = a.to(device), b.to(device)
            optimizer.zero_grad()
            criterion(model(a), b).backward()
            optimizer.step()
    torch.save(model.state_dict(), "model.pth")
    for a, b in probe:
        model(a.to(device), b.to(device))
