"""A translation lesson on four sentences written into the script: its evaluation without no_grad is real but
runs four forwards, so it is reported at medium, like the other rules in a module of toy data."""

import torch
import torch.nn as nn

device = torch.device("cuda")
raw = [
    "I feel hungry.\tJ'ai faim.",
    "PyTorch is easy.\tPyTorch est facile.",
    "This is a framework.\tC'est un cadre.",
    "It is clear to use.\tIl est clair.",
]


def preprocess(corpus):
    return [line.split("\t") for line in corpus]


def encode(sentence):
    return torch.tensor([ord(c) % 64 for c in sentence], device=device)


def evaluate(pairs, model):
    model.eval()
    for source, _ in pairs:
        output = model(encode(source))  # expect: PP503 medium
        print(source, output.argmax(-1))


pairs = preprocess(raw)
model = nn.Embedding(64, 64).to(device)
evaluate(pairs, model)
