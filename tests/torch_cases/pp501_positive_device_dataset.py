import argparse

import torch
from torch.utils.data import DataLoader, Dataset


class Corpus(Dataset):
    """Moves each item to the GPU itself, so the training loop moves nothing."""

    def __init__(self, rows, labels, cuda):
        self.rows, self.labels, self.cuda = rows, labels, cuda

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        x, y = torch.tensor(self.rows[i]), torch.tensor(self.labels[i])
        return (x.cuda(), y.cuda()) if self.cuda else (x, y)


def train():
    model.train()
    losses, accs = 0, 0
    for inputs, targets in train_loader:
        preds = model(inputs)
        loss = loss_fn(preds, targets)
        losses += loss.item()  # expect: PP501
        accs += (preds.argmax(dim=-1) == targets).sum().item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return losses, accs


def train_documents(model, loader, criterion, optimizer, meter, device):
    model.train()
    for documents, labels in loader:
        documents, labels = documents.to(device), labels.to(device)
        scores = model(documents)
        loss = criterion(scores, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        correct = torch.eq(scores.argmax(1), labels).sum().item()  # expect: PP501
        accuracy = correct / labels.size(0)
        meter.update(accuracy, labels.size(0))


parser = argparse.ArgumentParser()
parser.add_argument("--cuda", action="store_true")
config = parser.parse_args()
train_loader = DataLoader(Corpus([[1, 2]], [0], config.cuda), batch_size=64, num_workers=2, pin_memory=False)
model = torch.nn.Linear(2, 2)
loss_fn = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters())
if config.cuda:
    model = model.cuda()
train()
