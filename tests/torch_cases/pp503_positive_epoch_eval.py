"""An EEG trainer's shape: after each epoch's training loop, the whole test set in one forward."""

import torch


class Trainer:
    def __init__(self, model, loader, test_data, test_label, epochs):
        self.model = model.cuda()
        self.loader = loader
        self.test_data = test_data.cuda()
        self.test_label = test_label.cuda()
        self.epochs = epochs
        self.criterion = torch.nn.CrossEntropyLoss().cuda()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)

    def train(self):
        best = 0.0
        for epoch in range(self.epochs):
            self.model.train()
            for img, label in self.loader:
                img, label = img.cuda(), label.cuda()
                loss = self.criterion(self.model(img), label)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            if (epoch + 1) % 1 == 0:
                self.model.eval()
                logits = self.model(self.test_data)  # expect: PP503
                acc = (logits.argmax(1) == self.test_label).float().mean()
                best = max(best, float(acc))
        return best
