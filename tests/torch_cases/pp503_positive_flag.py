"""BERT-pytorch's shape: one pass for training and testing; the test call turns training off only."""

import torch
import tqdm


class BERTTrainer:
    def __init__(self, model, train_data, test_data, optim, criterion, device):
        self.model = model.to(device)
        self.train_data = train_data
        self.test_data = test_data
        self.optim = optim
        self.criterion = criterion
        self.device = device

    def train(self, epoch):
        self.iteration(epoch, self.train_data)

    def test(self, epoch):
        self.iteration(epoch, self.test_data, train=False)  # expect: PP503

    def iteration(self, epoch, data_loader, train=True):
        avg_loss = 0.0
        for data in tqdm.tqdm(data_loader, desc=f"EP {epoch}"):
            data = {key: value.to(self.device) for key, value in data.items()}
            output = self.model.forward(data["bert_input"], data["segment_label"])
            loss = self.criterion(output, data["is_next"])
            if train:
                self.optim.zero_grad()
                loss.backward()
                self.optim.step()
            avg_loss += loss.detach()
        return avg_loss / len(data_loader)


def run_epoch(model, loader, optimizer, is_train, device):
    total = 0.0
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x.to(device)), y.to(device))
        if is_train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.detach()
    return total


def fit(model, train_loader, val_loader, optimizer, device, epochs):
    for _ in range(epochs):
        run_epoch(model, train_loader, optimizer, True, device)
        run_epoch(model, val_loader, optimizer, False, device)  # expect: PP503


class Solver:
    """Conv-TasNet's shape: `if not cross_valid:` guards the step; validation passes True after eval()."""

    def __init__(self, model, tr_loader, cv_loader, optimizer, epochs):
        self.model = model
        self.tr_loader, self.cv_loader = tr_loader, cv_loader
        self.optimizer = optimizer
        self.epochs = epochs

    def train(self):
        for epoch in range(self.epochs):
            self.model.train()
            self._run_one_epoch(epoch)
            self.model.eval()
            self._run_one_epoch(epoch, cross_valid=True)  # expect: PP503

    def _run_one_epoch(self, epoch, cross_valid=False):
        total = 0.0
        data_loader = self.tr_loader if not cross_valid else self.cv_loader
        for mixture, source in data_loader:
            estimate = self.model(mixture.cuda())
            loss = torch.nn.functional.mse_loss(estimate, source.cuda())
            if not cross_valid:
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            total += loss.detach()
        return total / (epoch + 1)


def loop_dataset(graphs, classifier, idxes, optimizer=None, bsize=32):
    """DGCNN's shape: the step runs only when an optimizer is given; the test pass leaves it out."""
    losses = []
    for pos in range(len(idxes) // bsize):
        batch = [graphs[i] for i in idxes[pos * bsize : (pos + 1) * bsize]]
        logits, loss, acc = classifier(batch)
        if optimizer is not None:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        losses.append(loss.detach())
    return losses


def main(classifier, train_graphs, test_graphs, optimizer, epochs):
    for _ in range(epochs):
        classifier.train()
        loop_dataset(train_graphs, classifier, list(range(len(train_graphs))), optimizer=optimizer)
        classifier.eval()
        loop_dataset(test_graphs, classifier, list(range(len(test_graphs))))  # expect: PP503
