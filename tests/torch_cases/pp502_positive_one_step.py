"""PP502 (torch-fix62) twins of `pp502_negative_one_step.py` that still keep every step's graph: a tuple
rebinding that reads one element only, and a total over a loop of batches reset only once per epoch."""

import torch


def train_text2mel(model, loader, optimizer, criterion):
    model = model.cuda()
    running_l1_loss, correct = 0.0, 0
    for texts, mels in loader:
        out = model(texts.cuda())
        l1_loss = criterion(out, mels.cuda())
        optimizer.zero_grad()
        l1_loss.backward()
        optimizer.step()
        l1_loss, hits = l1_loss, (out > 0).sum()
        running_l1_loss += l1_loss  # expect: PP502
        correct += hits
    return running_l1_loss, correct


def train_epochs(model, loader, optimizer, criterion, epochs, num_batches):
    model = model.to(torch.device("cuda"))
    it = iter(loader)
    for _ in range(epochs):
        epoch_losses = []
        for _ in range(num_batches):
            x, y = next(it)
            loss = criterion(model(x.cuda()), y.cuda())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_losses.append(loss)  # expect: PP502
        print(sum(epoch_losses) / num_batches)
