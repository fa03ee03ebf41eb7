"""The same trainer switching grad mode by the phase itself: the validation pass records nothing."""

import torch


def run(model, loaders, optimizer, epoch, phase="train"):
    model.train() if phase == "train" else model.eval()
    torch.set_grad_enabled(True) if phase == "train" else torch.set_grad_enabled(False)
    total = 0.0
    for text, mel in loaders[phase]:
        pred = model(text.cuda())
        loss = torch.nn.functional.l1_loss(pred, mel.cuda())
        if phase == "train":
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.detach()
    return total


def fit(model, loaders, optimizer, epochs):
    for epoch in range(epochs):
        run(model, loaders, optimizer, epoch, phase="train")
        run(model, loaders, optimizer, epoch, phase="valid")
