# torch-fix94: clean twin of pp507_positive_named_choice: the loss is picked once, before the loop
import torch.nn as nn


def train(model, train_loader, optimizer, scheduler, criterion, device, reg=1.0):
    model.train()
    if criterion == "MSE" or criterion == "MSE_weighted":
        loss_criterion = nn.MSELoss(reduction="none")
    elif criterion == "MAE":
        loss_criterion = nn.L1Loss(reduction="none")
    for data in train_loader:
        data = data.to(device)
        optimizer.zero_grad()
        out = model(data)
        loss = loss_criterion(out, data.y).mean()
        loss.backward()
        optimizer.step()
        scheduler.step()
