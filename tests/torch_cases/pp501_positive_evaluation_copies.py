"""PP501 (torch-fix121): evaluation loops that copy to the host on every batch only to collect the values for
after the loop. Predictions appended as NumPy arrays and concatenated once the loop ends (TabSurvey's
`predict_helper`) wait for each batch: `medium`, `high` since torch-fix127 (98 of 107 right). A loss or a sum copied into a running total
(`total_loss += loss.data.cpu().numpy()[0] * len(b)`, HAT's `eval`) is an `.item()` by another name: `high`."""

import numpy as np
import torch

device = torch.device("cuda")


def predict_helper(model, test_loader):
    predictions = []
    with torch.no_grad():
        for batch_X in test_loader:
            preds = model(batch_X[0].to(device))
            preds = torch.sigmoid(preds)
            predictions.append(preds.detach().cpu().numpy())  # expect: PP501
    return np.concatenate(predictions)


def evaluate(model, criterion, x, y, sbatch=64):
    total_loss, total_acc, total_num = 0, 0, 0
    model.eval()
    r = torch.arange(x.size(0)).to(device)
    with torch.no_grad():
        for i in range(0, len(r), sbatch):
            b = r[i : i + sbatch]
            output = model(x[b])
            loss = criterion(output, y[b])
            _, pred = output.max(1)
            hits = (pred == y[b]).float()
            total_loss += loss.data.cpu().numpy()[0] * len(b)  # expect: PP501
            total_acc += hits.sum().data.cpu().numpy()[0]
            total_num += len(b)
    return total_loss / total_num, total_acc / total_num


def evaluate_with_loss(model, dataloader, criterion):
    # the loop copies each batch's predictions to the host for its metrics: reported at the copy; its
    # `.item()` beside the copy stays unreported (moved from pp501_negative_evaluation.py, review 24 item 20)
    all_preds, epoch_loss = [], 0.0
    with torch.no_grad():
        for input_ids, label_ids in dataloader:
            input_ids, label_ids = input_ids.to(device), label_ids.to(device)
            logits = model(input_ids)
            loss = criterion(logits, label_ids)
            all_preds.append(logits.argmax(1).cpu().numpy())  # expect: PP501
            epoch_loss += loss.item()
    return epoch_loss / len(dataloader), all_preds


def predict_listed(model, test_loader):
    # `list(...)` of the copy added to a list: collected (review 24 item 2)
    preds = []
    with torch.no_grad():
        for x, _ in test_loader:
            out = model(x.to(device))
            preds += list(out.argmax(1).cpu().numpy())  # expect: PP501
    return np.array(preds)


def predict_extended(model, test_loader):
    preds = []
    with torch.no_grad():
        for x, _ in test_loader:
            out = model(x.to(device))
            preds.extend(tuple(out.argmax(1).cpu().numpy()))  # expect: PP501
    return np.array(preds)


def mean_scores(model, test_loader):
    # a mean over one axis keeps a vector per batch: outputs, not a scalar (review 24 item 3)
    scores = []
    with torch.no_grad():
        for x, _ in test_loader:
            probs = torch.softmax(model(x.to(device)), dim=1)
            scores.append(probs.cpu().numpy().mean(axis=0))  # expect: PP501
    return np.stack(scores)


def per_sample_losses(model, test_loader):
    # a loss made with reduction="none" holds one value per sample: outputs, not a scalar (review 24 item 3)
    criterion = torch.nn.CrossEntropyLoss(reduction="none")
    losses = []
    with torch.no_grad():
        for x, y in test_loader:
            loss_per_sample = criterion(model(x.to(device)), y.to(device))
            losses.append(loss_per_sample.cpu().numpy())  # expect: PP501
    return np.concatenate(losses)


def predict_until_failure(model, test_loader):
    # breaks on an error count, not on the loop's counter: every batch may run (review 24 item 7)
    preds = []
    failures = 0
    with torch.no_grad():
        for x, _ in test_loader:
            out = model(x.to(device))
            if failures > 0:
                break
            preds.append(out.cpu().numpy())  # expect: PP501
            failures += int(not np.isfinite(preds[-1]).all())
    return np.concatenate(preds)


def validate_landmarks(loader, model):
    # the loss the loop binds to a full mean is one number, though nothing reduces it after the copy
    # (PFLD's `validate`, hold-out 34): a scalar, at the rule's own level
    losses = []
    with torch.no_grad():
        for img, landmark_gt in loader:
            _, landmark = model(img.to(device))
            loss = torch.mean(torch.sum((landmark_gt.to(device) - landmark) ** 2, axis=1))
            losses.append(loss.cpu().numpy())  # expect: PP501
    return np.mean(losses)
