"""`writer.add_scalars(tag, {name: loss, ...}, step)` with the device losses themselves on every step
(hold-out 13's Transformer-TTS, whose losses come from a loss module made and applied at once,
`nn.L1Loss()(mel_pred, mel)`): tensorboard reads each one on the host."""

import torch.nn as nn
from torch.utils.tensorboard import SummaryWriter


def train(m, loader, optimizer, epochs):
    m = nn.DataParallel(m.cuda())
    writer = SummaryWriter()
    global_step = 0
    for _ in range(epochs):
        for character, mel, mel_input in loader:
            global_step += 1
            mel_pred, postnet_pred = m.forward(character.cuda(), mel_input.cuda())
            mel = mel.cuda()
            mel_loss = nn.L1Loss()(mel_pred, mel)  # expect: PP507 high
            post_mel_loss = nn.L1Loss()(postnet_pred, mel)  # expect: PP507 high
            loss = mel_loss + post_mel_loss
            writer.add_scalars(  # expect: PP501
                "training_loss", {"mel_loss": mel_loss, "post_mel_loss": post_mel_loss}, global_step
            )
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
