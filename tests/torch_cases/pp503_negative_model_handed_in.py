"""torch-fix41 (tuned on hold-out 15): demucs' `evaluate` hands the model to `apply_model`, a def of another
module that runs the forward under `th.no_grad()` itself, and a def of this module that does the same."""

import torch as th
from demucs.apply import apply_model


def separate(model, mix, shifts):
    out = mix
    for _ in range(shifts):
        with th.no_grad():
            out = out + model(mix)
    return out / shifts


def evaluate(model, test_set, device):
    model.eval()
    scores = []
    for track in test_set:
        mix = th.from_numpy(track.audio).t().float().to(device)
        estimates = apply_model(model, mix[None], shifts=1)[0]
        local = separate(model, mix[None], 2)[0]
        scores.append(((estimates - local) ** 2).mean())
    return scores
