"""Loss sums in loops without backward that keep no graph: no_grad in every form, host numbers, detached
tensors, and the per-sequence loss summed over timesteps and back-propagated (or returned to a caller that
does)."""

import torch
import torch.nn.functional as F
from torch import nn


def validate(model, val_loader, criterion):
    model.eval()
    total_loss = 0.0
    with torch.no_grad():
        for data, target in val_loader:
            output = model(data)
            total_loss += criterion(output, target) * data.size(0)
    return total_loss / len(val_loader.dataset)


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    losses = []
    for batch in loader:
        losses.append(model(**batch).loss)
    return torch.stack(losses).mean()


@torch.inference_mode()
def test_epoch(model, loader, loss_fn):
    total = 0
    for x, y in loader:
        total += loss_fn(model(x), y)
    return total


def run_validation(model, loader, loss_fn):
    total = 0
    for x, y in loader:
        total = total + loss_fn(model(x), y)
    return total / len(loader)


def report(model, loader, loss_fn):
    model.eval()
    with torch.no_grad():
        print(run_validation(model, loader, loss_fn))


def host_numbers(model, loader, criterion):
    model.eval()
    val_loss, history, kept = 0.0, [], []
    with torch.no_grad():
        for x, y in loader:
            out = model(x)
            loss = criterion(out, y)
            val_loss += loss.item()
            history.append(float(loss))
            kept.append(loss.detach())
    return val_loss, history, kept


def sequence_loss(decoder, inputs, targets, hidden):
    loss = 0
    for t in range(inputs.size(0)):
        output, hidden = decoder(inputs[t], hidden)
        loss += F.nll_loss(output, targets[t])
    return loss


def train_step(model, optimizer, frames, labels, criterion):
    optimizer.zero_grad()
    loss = 0
    for t in range(frames.size(1)):
        loss += criterion(model(frames[:, t]), labels[:, t])
    loss.backward()
    optimizer.step()
    return loss.detach()


def multi_scale_loss(model, images, target, scales, criterion):
    total = 0
    for scale in scales:
        resized = F.interpolate(images, scale_factor=scale)
        total += criterion(model(resized), target)
    return total


def saliency(model, loader, criterion):
    grads = []
    for x, y in loader:
        x.requires_grad_(True)
        loss = criterion(model(x), y)
        grads.append(torch.autograd.grad(loss, x)[0])
    return grads


model = nn.Linear(32, 1)
batches = [(torch.randn(64, 32), torch.randn(64, 1)) for _ in range(100)]
for x, y in batches:
    step_loss = 0
    step_loss += F.mse_loss(model(x), y)
    print(step_loss.item())
torch.set_grad_enabled(False)
test_loss = 0
for x, y in batches:
    test_loss += F.mse_loss(model(x), y)


class AverageMeter:
    def __init__(self):
        self.sum = self.count = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n


class Metric:
    """Averages a value across workers; what it keeps is detached."""

    def __init__(self):
        self.sum = torch.tensor(0.0)

    def update(self, val):
        self.sum += val.detach().cpu()


def train_epoch(model, loader, optimizer, criterion, progress):
    losses, train_loss = AverageMeter(), Metric()
    for images, target in loader:
        loss = criterion(model(images), target)
        losses.update(loss.item(), images.size(0))
        train_loss.update(loss)
        progress.update(loss)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return losses.sum / losses.count


class MultiDecoder(nn.Module):
    """Losses summed in forward are the training loss: the caller runs backward on them."""

    def __init__(self, encoder, decoders):
        super().__init__()
        self.encoder, self.decoders = encoder, nn.ModuleList(decoders)
        self.aux_loss = 0

    def forward(self, x):
        z = self.encoder(x)
        for decoder in self.decoders:
            self.aux_loss += F.mse_loss(decoder(z), x)
        return z
