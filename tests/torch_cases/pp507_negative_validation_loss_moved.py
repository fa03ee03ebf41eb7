# a validation helper named for a loss (Scaffold-Federated-Learning's `get_val_loss`, hold-out 48): its loss
# is built and moved at once, and every call of it is under no_grad, once per local epoch; not a training
# step's loss
import torch
from torch import nn

device = torch.device("cuda")


def get_val_loss(model, val):
    model.eval()
    loss_function = nn.MSELoss().to(device)
    val_loss = []
    for seq, label in val:
        with torch.no_grad():
            y_pred = model(seq.to(device))
            loss = loss_function(y_pred, label.to(device))
            val_loss.append(loss)
    return torch.stack(val_loss).mean()


def train(model, train_loader, val, optimizer, epochs):
    loss_function = nn.MSELoss().to(device)
    for _epoch in range(epochs):
        for seq, label in train_loader:
            loss = loss_function(model(seq.to(device)), label.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(get_val_loss(model, val))
