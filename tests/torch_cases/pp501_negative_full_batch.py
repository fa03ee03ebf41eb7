# a full-batch GCN (hold-out 8's GraphNeuralNetwork book): one optimiser step per epoch on the whole graph,
# so the loss read for the history and the print is the epoch's log, once per epoch
import torch
import torch.nn as nn

device = torch.device("cuda")
EPOCHS = 200
model = torch.load("gcn.pt").to(device)
criterion = nn.CrossEntropyLoss().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
adjacency = torch.load("adjacency.pt").to(device)
x = torch.load("features.pt").to(device)
y = torch.load("labels.pt").to(device)
train_mask = torch.load("train_mask.pt").to(device)


def train():
    loss_history = []
    model.train()
    for epoch in range(EPOCHS):
        logits = model(adjacency, x)
        loss = criterion(logits[train_mask], y[train_mask])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_history.append(loss.item())
        print(f"Epoch {epoch:03d}: Loss {loss.item():.4f}")
    return loss_history
