"""An inference module whose defs open no_grad themselves or hand the forward back as a tensor, and a
model the module also switches back to training mode."""

import torch

_encoder = None


def load_encoder(model):
    global _encoder
    _encoder = model.cuda()
    _encoder.eval()


def embed(frames):
    with torch.no_grad():
        return _encoder(torch.from_numpy(frames).cuda()).cpu().numpy()


def encode(frames):
    return _encoder(torch.from_numpy(frames).cuda())


_model = None


def load_model(model):
    global _model
    _model = model.cuda()
    _model.eval()


def fine_tune_mode():
    _model.train()


def score(frames):
    return _model(torch.from_numpy(frames).cuda()).argmax(1).tolist()
