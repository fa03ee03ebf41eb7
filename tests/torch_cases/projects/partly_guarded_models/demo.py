"""A demo over precomputed clips: of the package's networks only one guards itself, so the loop is reported."""

import torch
from models import build_model


def predict(cfg, clips):
    model = build_model(cfg).cuda()
    model.eval()
    found = []
    for clip in clips:
        preds = model(clip.cuda())  # expect: PP503
        found.append(preds.detach().cpu())  # expect: PP501
    return found


if __name__ == "__main__":
    predict(torch.load("cfg.pt"), torch.load("clips.pt"))
