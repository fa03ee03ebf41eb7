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
