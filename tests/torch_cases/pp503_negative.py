import torch
from torch import no_grad


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    return [model(x).argmax(1) for x, _ in loader]


def predict(model, loader):
    model.eval()
    with torch.inference_mode():
        return torch.cat([model(x) for x in loader])


def test_epoch(model, loader):
    scores = []
    for x, _ in loader:
        scores.append(model(x))
    return scores


def run_tests(model, loader):
    return test_epoch(model, loader)


def main(model, loader):
    with no_grad():
        print(run_tests(model, loader))


def saliency(model, batches):
    model.eval()
    maps = []
    for images in batches:
        images.requires_grad_()
        model(images).max(1).values.sum().backward()
        maps.append(images.grad.abs())
    return maps


def train_with_frozen_bn(model, loader, optimizer, criterion):
    model.eval()
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()


def train_model(model, dataloaders, criterion, optimizer, num_epochs=25):
    for _epoch in range(num_epochs):
        for phase in ["train", "val"]:
            if phase == "train":
                model.train()
            else:
                model.eval()
            for inputs, labels in dataloaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    loss = criterion(model(inputs), labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()


def test_output_shapes(model):
    for size in (28, 32, 64):
        out = model(torch.rand(2, 1, size, size))
        assert out.shape == (2, 10)
