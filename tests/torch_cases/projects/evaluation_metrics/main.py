import metric
import torch


def test(model, loader, device):
    model.eval()
    hits = 0.0
    seen = 0
    with torch.no_grad():
        for heads, tails in loader:
            heads, tails = heads.to(device), tails.to(device)
            predictions = model(heads)
            hits += metric.hit_at_k(predictions, tails.view(-1, 1), k=10)
            seen += metric.label_count(tails)
    return hits / seen
