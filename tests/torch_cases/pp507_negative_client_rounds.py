# federated rounds (hold-out 19's FedMA, Trajectron++'s epochs): set-up in a loop that only encloses the step
# loop -- a loss built and a model moved once per client after loading its weights, a registrar moved once per
# epoch -- runs once per local training run, not on every step
import language_model
import torch
from torch import nn


def local_training(weights, client_batches, device, rounds):
    for _round in range(rounds):
        for client_index, batches in enumerate(client_batches):
            model = language_model.RNNModel("LSTM", 80, 8, 256, 1)
            criterion = nn.CrossEntropyLoss()
            model.load_state_dict(weights[client_index])
            model.to(device)
            optimizer = torch.optim.SGD(model.parameters(), lr=0.8)
            for data, targets in batches:
                data, targets = data.to(device, non_blocking=True), targets.to(device, non_blocking=True)
                optimizer.zero_grad()
                loss = criterion(model(data), targets)
                loss.backward()
                optimizer.step()
            weights[client_index] = model.state_dict()
    return weights


def train_epochs(model_registrar, trajectron, batches, device, epochs):
    optimizer = torch.optim.Adam(model_registrar.parameters(), lr=1e-3)
    for _epoch in range(epochs):
        model_registrar.to(device)
        for batch in batches:
            optimizer.zero_grad()
            loss = trajectron.train_loss(batch)
            loss.backward()
            optimizer.step()
