"""A script that moves each batch with a project mover named for the move (`maybe_cuda(x, use_cuda)`, the
online-continual-learning agents'), then reads the loss on every step: the control of
pp501_negative_setup_gpu_helper.py (review 28 item 3)."""

import argparse

import torch
from utils import get_loader, maybe_cuda

parser = argparse.ArgumentParser()
parser.add_argument("--gpu_id", type=int, default=0)
parser.add_argument("--no_cuda", action="store_true")
args = parser.parse_args()

model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = get_loader(args)
total = 0.0
for x, y in loader:
    x, y = maybe_cuda(x, not args.no_cuda), maybe_cuda(y, not args.no_cuda)
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()  # expect: PP501
print(total)
