"""A training loop whose placeholder losses are made on the host only on the branch of a command-line option
that the defaults do not take (`--onlyrot` is off, `--w_chamfer` is 0.1 so `> 0` holds): the shipped run
makes no such copy, so they are `medium`, not the `high` of a copy in a step loop."""

import argparse

import torch
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--onlyrot", default=False, action="store_true")
parser.add_argument("--w_chamfer", "--w-chamfer", default=0.1, type=float)
args = parser.parse_args()
device = torch.device("cuda")


def train(model, loader, optimizer, bins_loss):
    for images, labels, depth in loader:
        images, labels, depth = images.to(device), labels.to(device), depth.to(device)
        logits, bin_edges = model(images)
        if args.onlyrot:
            loss = torch.Tensor([0]).to(device)  # expect: PP506 medium
        else:
            loss = F.cross_entropy(logits, labels)
            logits = logits.detach()
        if args.w_chamfer > 0:
            l_chamfer = bins_loss(bin_edges, depth)
            bin_edges = bin_edges.detach()
        else:
            l_chamfer = torch.Tensor([0]).to(device)  # expect: PP506 medium
        loss = loss + args.w_chamfer * l_chamfer
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
