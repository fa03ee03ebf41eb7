import torch
import torch.nn as nn


# The step's losses are read into a dict that a loop hands to a logger, every step.
def train(model, loader, optimizer, tb_logger, epochs):
    device = torch.device("cuda")
    model.to(device)
    recon_loss_func = nn.MSELoss().to(device)
    step = 0
    for _ in range(epochs):
        for frames in loader:
            frames = frames.to(device)
            out = model(frames)
            loss = recon_loss_func(out, frames)
            loss_val = loss.item()  # expect: PP501
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            tb_info = {"loss": loss_val}
            for tag, value in tb_info.items():
                tb_logger.scalar_summary(tag, value, step)
            step += 1
