"""PP501: evaluation loops whose per-batch reads are not reported."""

import torch

device = torch.device("cuda")


def evaluate(model, dataloader, criterion):
    # the loop copies each batch's predictions to the host for its metrics (torch-fix121: reported at the copy,
    # `medium`; its `.item()` beside the copy stays unreported)
    all_preds, epoch_loss = [], 0.0
    with torch.no_grad():
        for input_ids, label_ids in dataloader:
            input_ids, label_ids = input_ids.to(device), label_ids.to(device)
            logits = model(input_ids)
            loss = criterion(logits, label_ids)
            all_preds.append(logits.argmax(1).cpu().numpy())  # expect: PP501 medium
            epoch_loss += loss.item()
    return epoch_loss / len(dataloader), all_preds


def validate(model, loader, meter):
    # reads every tenth batch only
    with torch.no_grad():
        for i, (x, y) in enumerate(loader):
            out = model(x.to(device))
            if i % 10 == 0:
                meter.update((out.argmax(1) == y.to(device)).float().mean().item())


def evaluate_with_training(model, loader, optimizer, criterion):
    # a loop that steps is a training loop, judged by the rule's training-loop terms
    for x, y in loader:
        loss = criterion(model(x.to(device)), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
