"""A TTS trainer's shape: one def trains or validates by a phase name; the validation call runs with
autograd on."""

import torch


def run(model, loaders, optimizer, epoch, phase="train"):
    model.train() if phase == "train" else model.eval()
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
        run(model, loaders, optimizer, epoch, phase="valid")  # expect: PP503
