"""torch-fix41: the model itself called in the loop (no def in between) without no_grad: still an
evaluation loop that records a graph per batch."""

import torch as th


def evaluate(model, test_set, device):
    model.eval()
    scores = []
    for track in test_set:
        mix = th.from_numpy(track.audio).t().float().to(device)
        estimates = model(mix[None])[0]  # expect: PP503 high
        scores.append(((estimates - mix) ** 2).mean().item())  # expect: PP501
    return scores
