import torch
import torch.nn as nn


# The read value steers the loop: the dict is searched for a stop condition, not only logged.
def train(model, loader, optimizer, tb_logger, epochs):
    device = torch.device("cuda")
    model.to(device)
    recon_loss_func = nn.MSELoss().to(device)
    for _ in range(epochs):
        for frames in loader:
            frames = frames.to(device)
            out = model(frames)
            loss = recon_loss_func(out, frames)
            loss_val = loss.item()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            info = {"loss": loss_val}
            for tag, value in info.items():
                if value < 1e-4:
                    return tag
