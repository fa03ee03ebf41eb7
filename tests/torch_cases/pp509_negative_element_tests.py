"""PP509 left alone: an element test on a Python list, a pair read under an `if`, and a loop over a
NumPy array's pairs."""

import numpy as np
import torch


def count_boxes(boxes, n_batch):
    n = 0
    for b in range(n_batch):
        rows = boxes[b]
        for t in range(50):
            if rows[t][1] == 0:  # (a list of lists read from a label file)
                break
            n += 1
    return n


def pick_scores(edges, adj_rec, wanted):
    preds = []
    for e in edges:
        if e[0] in wanted:
            preds.append(adj_rec[e[0], e[1]].item())
    return preds


def from_numpy(edges):
    table = np.zeros((10, 10))
    return torch.tensor([table[e[0], e[1]] for e in edges])


def average_precision(index, good_index):
    # a NumPy array, flattened: `flatten` is no tensor method here
    rows_good = np.argwhere(np.isin(index, good_index))
    rows_good = rows_good.flatten()
    ap = 0.0
    for i in range(len(good_index)):
        if rows_good[i] != 0:
            ap += i / rows_good[i]
    return ap


def first_ends(outputs, eos_tok, max_len):
    lengths = None
    for i in range(2, max_len):
        ones = (outputs == eos_tok).nonzero()
        lengths = torch.zeros(len(outputs), dtype=torch.long)
        for vec in ones:
            i = vec[0]  # (the decoding step's `i` is rebound: the test below is the inner loop's)
            if lengths[i] == 0:
                lengths[i] = vec[1]
    return lengths
