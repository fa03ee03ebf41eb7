"""A helper whose tensors come in as parameters (torch-fix50): a ranking head's hard-negative sampler,
called from the forward with the head's scores, reads each sample's sorted candidates to the host in a
loop over the batch's per-sample box counts on every step; the same helper given host scores by an
evaluation script (`scores.cpu()`) reads nothing from the device."""

import random

import numpy as np
import torch
import torch.nn as nn


class Referring(nn.Module):
    def __init__(self, bert, hidden, hard_ratio=0.5):
        super().__init__()
        self.bert = bert
        self.re_output = nn.Linear(hidden, 1)
        self.hard_ratio = hard_ratio

    def forward(self, batch):
        hidden = self.bert(batch["input_ids"])
        scores = self.re_output(hidden).squeeze(2)
        targets, num_bbs = batch["targets"], batch["num_bbs"]
        neg_ix = self.sample_neg_ix(scores, targets, num_bbs)
        return scores.gather(1, targets.view(-1, 1)) - scores.gather(1, neg_ix.view(-1, 1))

    def sample_neg_ix(self, scores, targets, num_bbs):
        neg_ix = []
        cand_ixs = torch.argsort(scores, dim=-1, descending=True)
        for i in range(len(num_bbs)):
            if np.random.uniform(0, 1, 1) < self.hard_ratio:
                for ix in cand_ixs[i].tolist():  # expect: PP509 medium
                    if ix != targets[i]:
                        neg_ix.append(ix)
                        break
            else:
                neg_ix.append(random.randint(0, num_bbs[i] - 1))
        return torch.tensor(neg_ix).type(targets.type())


class Ranker:
    def __init__(self, scorer):
        self.scorer = scorer

    def rank(self, batch):
        scores = self.scorer(batch).cpu()
        return self.best_rows(scores, batch["num_bbs"])

    def best_rows(self, scores, num_bbs):
        order = torch.argsort(scores, dim=-1, descending=True)
        return [order[i].tolist()[:3] for i in range(len(num_bbs))]
