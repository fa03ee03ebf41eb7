"""torch-light's shape: the evaluation's inputs are volatile, made so by the loader of another module."""

import torch
from data_loader import DataLoader
from model import Tagger

data = torch.load("data.pt")
training_data = DataLoader(data["train"]["src"], data["train"]["label"])
validation_data = DataLoader(data["valid"]["src"], data["valid"]["label"], evaluation=True)
model = Tagger(len(data["dict"]))
optimizer = torch.optim.Adam(model.parameters())
criterion = torch.nn.CrossEntropyLoss()


def evaluate():
    model.eval()
    corrects = 0
    for src, label in validation_data:
        pred = model(src)
        corrects += (pred.max(1)[1].data == label.data).sum()
    return corrects


def evaluate_batches():
    model.eval()
    corrects = 0
    for i in range(0, validation_data.sents_size, 64):
        src, label = validation_data.get_batch(i)
        pred = model(src)
        corrects += (pred.max(1)[1].data == label.data).sum()
    return corrects


def train():
    model.train()
    for src, label in training_data:
        optimizer.zero_grad()
        criterion(model(src), label).backward()
        optimizer.step()


for _ in range(10):
    train()
    print(evaluate(), evaluate_batches())
