"""torch-fix84: `empty_cache()` in a loop whose own body steps no optimizer is `low` (a test script's loop over
images of different sizes, where the flush is deliberate; an epoch loop around a nested batch loop); in a
training loop that steps it keeps the rule's level."""

import torch


def test_images(model, paths, load_image, save_image):
    model.eval()
    with torch.no_grad():
        for path in paths:
            image = load_image(path).cuda()
            restored = model(image)
            save_image(restored.clamp(0, 1).cpu(), path)
            torch.cuda.empty_cache()  # expect: PP510 low


def run(model, loader, optimizer, criterion, epochs):
    for epoch in range(epochs):
        model.train()
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            torch.cuda.empty_cache()  # expect: PP510 high
        print(epoch)


class Trainer:
    def backward(self, loss):
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()

    def exec(self, loader):
        for mels, lengths in loader:
            loss = self.model(mels.cuda(), lengths).mean()
            self.backward(loss)
            torch.cuda.empty_cache()  # expect: PP510 high
