"""`writer.add_scalars` silent: of numbers read every N steps only, and of the learning rates (no
tensors)."""

import torch.nn as nn
from torch.utils.tensorboard import SummaryWriter


def train(m, loader, optimizer, epochs, log_every):
    m = m.cuda()
    writer = SummaryWriter()
    global_step = 0
    l1 = nn.L1Loss()
    for _ in range(epochs):
        for mel, mel_input in loader:
            global_step += 1
            mel = mel.cuda()
            mel_loss = l1(m(mel_input.cuda()), mel)
            optimizer.zero_grad()
            mel_loss.backward()
            optimizer.step()
            lrs = {f"group{i}": g["lr"] for i, g in enumerate(optimizer.param_groups)}
            writer.add_scalars("lr", lrs, global_step)
            if global_step % log_every == 0:
                writer.add_scalars("training_loss", {"mel_loss": mel_loss.item()}, global_step)
