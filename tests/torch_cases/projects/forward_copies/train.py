"""Builds the loss, the model and the preprocessed graphs, so the classes and defs are named."""

import torch
from fwd import InvarianceLoss, PriorNet
from prep import preprocess

criterion = InvarianceLoss(10, "cuda")
prior = PriorNet(8, True, "cuda")
graphs = preprocess([torch.randn(4, 8)])
