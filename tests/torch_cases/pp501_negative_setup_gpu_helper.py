"""A CPU script whose project helper only picks the device from the flags (`setup_gpu(args.gpu_id,
args.no_cuda)`): named for the GPU but no mover, so the per-step `loss.item()` waits for nothing (review 28
item 3)."""

import argparse

import torch
from utils import get_loader, setup_gpu

parser = argparse.ArgumentParser()
parser.add_argument("--gpu_id", type=int, default=0)
parser.add_argument("--no_cuda", action="store_true")
args = parser.parse_args()

setup_gpu(args.gpu_id, args.no_cuda)
model = torch.nn.Linear(8, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = get_loader(args)
total = 0.0
for x, y in loader:
    loss = ((model(x) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()
print(total)
