import metric
import torch


def test(model, loader, device):
    model.eval()
    hits = 0.0
    with torch.no_grad():
        for i, (heads, tails) in enumerate(loader):
            heads, tails = heads.to(device), tails.to(device)
            predictions = model(heads)
            if i == 0:
                hits += metric.hit_at_k(predictions, tails.view(-1, 1), k=10)
    return hits
