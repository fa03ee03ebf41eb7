# torch-fix94: the loss is built inside the training loop under an `if`/`elif` that picks it by a name the
# training def is given: one branch runs on every step, so a loss module is built every step
import torch.nn as nn


def train(model, train_loader, optimizer, scheduler, criterion, device, reg=1.0):
    model.train()
    for data in train_loader:
        data = data.to(device)
        optimizer.zero_grad()
        out = model(data)
        if criterion == "MSE" or criterion == "MSE_weighted":
            loss_criterion = nn.MSELoss(reduction="none")  # expect: PP507 high
        elif criterion == "MAE":
            loss_criterion = nn.L1Loss(reduction="none")  # expect: PP507 high
        loss = loss_criterion(out, data.y).mean()
        loss.backward()
        optimizer.step()
        scheduler.step()
