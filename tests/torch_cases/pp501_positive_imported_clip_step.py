"""A translation model's update def clips with the imported `clip_grad_norm_` and skips the step on an
infinite norm: `math.isinf` turns the returned device tensor into a float, so each update waits for the
backward (review 21 item 2, the step-def twin of pp501_positive_imported_clip_loop.py)."""

import math

import torch
from torch.nn.utils import clip_grad_norm_


class Translator:
    def __init__(self, encoder, decoder, lr, max_grad):
        self.encoder = encoder.cuda()
        self.decoder = decoder.cuda()
        params = list(self.encoder.parameters()) + list(self.decoder.parameters())
        self.params = params
        self.optim = torch.optim.Adam(params, lr=lr)
        self.max_grad = max_grad
        self.skipped = 0

    def update(self, loss):
        self.optim.zero_grad()
        loss.backward()
        norm = clip_grad_norm_(self.params, self.max_grad)
        if math.isinf(norm):  # expect: PP501
            self.skipped += 1
            return
        self.optim.step()
