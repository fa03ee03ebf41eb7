# a loop over a model's output whose test compares each element with a number (not a string): an element
# loop, as before the named-losses exemption
import torch


@torch.no_grad()
def count_confident(model, batch):
    scores = model(batch)
    confident = 0
    for s in scores:  # expect: PP509 low
        if s > 0.9 or s == 0:
            confident += 1
    return confident
