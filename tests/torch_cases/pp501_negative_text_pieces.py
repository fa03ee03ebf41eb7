# ruff: noqa: UP031
"""PP501 (torch-fix65), clean twin of pp501_positive_text_pieces.py: host numbers formatted into the log
pieces, and a tensor formatted only every N steps, wait for nothing on the other steps."""

import logging

import torch  # noqa: F401

logger = logging.getLogger(__name__)


def train(model, loader, optimizer, epochs):
    model = model.cuda()
    for epoch in range(epochs):
        for itr, (images, targets) in enumerate(loader):
            optimizer.zero_grad()
            loss = model(images.cuda(), targets.cuda()).mean()
            loss.backward()
            optimizer.step()
            screen = ["Epoch %d itr %d:" % (epoch, itr), "lr: %g" % optimizer.param_groups[0]["lr"]]
            if itr % 100 == 0:
                screen.append("%s: %.4f" % ("loss", loss.detach()))
            logger.info(" ".join(screen))
