import torch


def evaluate(model, loader, log):
    n_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
    log(f"{n_params} trainable parameters")
    model.eval()
    correct = 0
    for x, y in loader:
        out = model(x.cuda())  # expect: PP503 high
        correct += (torch.argmax(out, 1) == y.cuda()).sum()
    return correct
