"""torch-fix84's twin: the same evaluation loops with a forward in them stay reported."""

import logging

import torch

logger = logging.getLogger(__name__)


def eval_one_epoch(critic, loader):
    critic.eval()
    for iteration, batch in enumerate(loader):
        score = critic(batch.cuda())  # expect: PP503 high
        logger.critical(f"iteration {iteration}: {score.mean()}")


def test(opt, test_loader, define_model):
    model = define_model(opt)
    model.eval()
    for x in test_loader:
        out = model(x.cuda())  # expect: PP503 high
        print(torch.argmax(out, 1).tolist())


def probe_layers(model, loader):
    model.eval()
    layers = list(model.children())
    for x in loader:
        print(len(layers), model(x.cuda()).shape)  # expect: PP503 high
