import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class TrainModel:
    def __init__(self):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    def train_model(self, model, train_dataset, batch_size=64, epochs=10):
        optimizer = torch.optim.Adam(model.parameters())
        criterion = nn.CrossEntropyLoss()
        train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True)
        for _ in range(epochs):
            for inputs, labels in train_loader:
                inputs = inputs.to(self.device)
                labels = labels.to(self.device)
                optimizer.zero_grad()
                loss = criterion(model(inputs), labels)
                loss.backward()
                optimizer.step()
        return model


def evaluate(model, test_dataset):
    model.eval()
    test_loader = DataLoader(test_dataset, batch_size=1, shuffle=False)
    with torch.no_grad():
        for inputs, _labels in test_loader:
            inputs = inputs.to(device)
            model(inputs)


X = np.load("features.npy")
y = np.load("labels.npy")
X_train = torch.Tensor(X[:900]).unsqueeze(1).to(device)
X_test = torch.Tensor(X[900:]).unsqueeze(1).to(device)
y_train = torch.LongTensor(y[:900]).to(device)
y_test = torch.LongTensor(y[900:]).to(device)
train_dataset = TensorDataset(X_train, y_train)
test_dataset = TensorDataset(X_test, y_test)

net = nn.Sequential(nn.Flatten(), nn.Linear(64, 4)).to(device)
trained = TrainModel().train_model(net, train_dataset, batch_size=32)
evaluate(trained, test_dataset)
