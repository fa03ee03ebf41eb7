# ruff: noqa: UP031
"""PP501 (torch-fix65): a graph tensor formatted into a piece of the log line outside a call's arguments
(`screen = [..., '%s: %.4f' % ('loss', loss.detach())]`, joined and logged later: 3DMPPE's trainer) is
turned into digits on the host every step."""

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
            screen = [
                "Epoch %d itr %d:" % (epoch, itr),
                "%s: %.4f" % ("loss", loss.detach()),  # expect: PP501 high
            ]
            logger.info(" ".join(screen))
