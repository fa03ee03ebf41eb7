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
        train_loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True)  # expect: PP505 low
        for _ in range(epochs):
            for inputs, labels in train_loader:
                inputs = inputs.to(self.device)
                labels = labels.to(self.device)
                optimizer.zero_grad()
                loss = criterion(model(inputs), labels)
                loss.backward()
                optimizer.step()
        return model


X = np.load("features.npy")
y = np.load("labels.npy")
train_dataset = TensorDataset(torch.Tensor(X).unsqueeze(1), torch.LongTensor(y))

net = nn.Sequential(nn.Flatten(), nn.Linear(64, 4)).to(device)
trained = TrainModel().train_model(net, train_dataset, batch_size=32)
