import torch

device = torch.device("cuda")


def train_one_epoch(model, optimizer, criterion, loader, log):
    for inp, target in loader:
        loss = criterion(model(inp.to(device, non_blocking=True)), target.to(device, non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch.cuda.synchronize()  # expect: PP510 high
        log.append(loss.detach())


@torch.no_grad()
def validate_network(model, loader):
    return sum((model(x.to(device, non_blocking=True)).argmax(1).cpu() == y).sum() for x, y in loader)


def main(model, optimizer, criterion, loader, val_loader, epochs):
    log = []
    for _ in range(epochs):
        # the per-step synchronize is reported once, in the helper's loop, not again at this call
        train_one_epoch(model, optimizer, criterion, loader, log)
        print(validate_network(model, val_loader))
