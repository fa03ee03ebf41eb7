"""Where PP506 would say `medium` (a forward, a loss def, a training-step def), a copy made with `.cuda()`
(or `.type(torch.cuda.FloatTensor)`) outside any `if` is `high` (torch-fix50: a real copy to the GPU
wherever the code runs); a copy under an option's `if` stays `medium`. (torch-fix54: `.to(features.device)`,
the device of a tensor at hand, is `high` too.)
(torch-fix111) A copy in a `forward` (any `if` over it), or outside any `if` in a def a `forward` calls, is now
`high` (72 of 74 `medium` read right over hold-outs 29-35)."""

import torch
import torch.nn as nn


class CaptionDecoder(nn.Module):
    def __init__(self, vocab_size, hidden, use_coverage=False):
        super().__init__()
        self.cell = nn.LSTMCell(hidden, hidden)
        self.out = nn.Linear(hidden, vocab_size)
        self.use_coverage = use_coverage

    def forward(self, features, captions):
        batch, steps = captions.size(0), captions.size(1)
        prev_words = torch.zeros(batch, 1).long().cuda()  # expect: PP506 high
        preds = torch.zeros(batch, steps, self.out.out_features).to(features.device)  # expect: PP506 high
        if self.use_coverage:
            coverage = torch.zeros(batch, steps).cuda()  # expect: PP506 high
            features = features + coverage.sum()
        h = c = features
        for t in range(steps):
            h, c = self.cell(features, (h, c))
            preds[:, t] = self.out(h)
        return preds, prev_words


def contrastive_loss(z1, z2, temperature=0.5):
    n = z1.size(0)
    mask = torch.eye(n).type(torch.cuda.FloatTensor)  # expect: PP506 high
    sim = z1 @ z2.t() / temperature
    return -(sim * mask).sum() / n
