import torch
from torch.utils.data import DataLoader


def cross_validate(make_net, folds, device, epochs):
    scores = []
    for train_set, held_out in folds:
        net = make_net().to(device)
        opt = torch.optim.Adam(net.parameters())
        loader = DataLoader(train_set, batch_size=64, shuffle=True, num_workers=4, pin_memory=True)
        for _ in range(epochs):
            for xb, yb in loader:
                xb, yb = xb.to(device), yb.to(device)
                opt.zero_grad()
                torch.nn.functional.mse_loss(net(xb), yb).backward()
                opt.step()
        scores.append(score(net, held_out, device))
        del net, opt
        if device == "cuda":
            torch.cuda.empty_cache()
    return scores


def score(net, held_out, device):
    total = 0.0
    with torch.no_grad():
        for xb, yb in DataLoader(held_out, batch_size=256, num_workers=4, pin_memory=True):
            total += torch.nn.functional.mse_loss(net(xb.to(device)), yb.to(device), reduction="sum")
            if device == "cuda":
                torch.cuda.empty_cache()
    return total
