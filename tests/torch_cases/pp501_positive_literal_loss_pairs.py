"""Each loss term read in a loop over a literal list of (name, loss) pairs, after every step."""

import torch


def train_one_epoch(model, loader, optimizer, totals):
    model.train()
    for texts, mels in loader:
        texts, mels = texts.cuda(), mels.cuda()
        mel_pred, dur_pred = model(texts)
        mel_loss = torch.nn.functional.l1_loss(mel_pred, mels)
        dur_loss = dur_pred.pow(2).mean()
        optimizer.zero_grad()
        (mel_loss + dur_loss).backward()
        optimizer.step()
        for name, value in [("mel_loss", mel_loss), ("dur_loss", dur_loss)]:
            totals[name] += value.item() * texts.size(0)  # expect: PP501
    return totals


def train_with_weights(model, loader, optimizer, weights):
    model.train()
    for texts, mels in loader:
        texts, mels = texts.cuda(), mels.cuda()
        loss = torch.nn.functional.l1_loss(model(texts)[0], mels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for name, weight in [("mel", 1.0), ("dur", 0.5)]:
            weights[name] = weight
    return weights
