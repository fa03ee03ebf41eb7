"""Loops PP509 leaves alone (torch-fix50): over a name the def turned into a NumPy array before the loop
(`acc = acc.cpu().numpy()`), whatever other defs bind it to; over the words of a sentence that happens to
share a tensor's name elsewhere in the module; filling keys element by element in a def only `__init__`
runs; padding each row of a ragged batch to one size before stacking."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attacker:
    def __init__(self, classifier):
        self.classifier = classifier
        self.solution = None

    def evaluate(self, population, graphs):
        log_ll, _, acc = self.classifier(graphs)
        acc = acc.cpu().double().numpy()
        for i in range(len(population)):
            if acc[i] < 1.0:
                self.solution = population[i]
                break
        return log_ll


class Encoder(nn.Module):
    def __init__(self, vocab):
        super().__init__()
        self.vocab = vocab
        self.convnet = nn.Conv1d(300, 300, 3)

    def forward(self, sent, lengths):
        sent = sent.index_select(1, torch.argsort(lengths))
        sent = self.convnet(sent)
        return sent

    def word_dict(self, sentences):
        words = {}
        sentences = [s.split() for s in sentences]
        for sent in sentences:
            for word in sent:
                if word not in words:
                    words[word] = ""
        return words


class ProductKeys(nn.Module):
    def __init__(self, k_dim):
        super().__init__()
        self.k_dim = k_dim
        self.init_keys()

    def init_keys(self):
        keys = torch.zeros(2**self.k_dim, self.k_dim)
        for i in range(keys.shape[0]):
            for j in range(keys.shape[1]):
                keys[i, j] = int((1 << j) & i > 0)
        self.keys = nn.Parameter(keys * 2 - 1)


def pad_masks(bitmasks, target_size):
    kernels = []
    for b in range(len(bitmasks)):
        mask = bitmasks[b]
        pad = [0, target_size[1] - mask.shape[1], 0, target_size[0] - mask.shape[0]]
        kernels.append(F.pad(mask, pad, mode="constant", value=0))
    return torch.stack(kernels)
