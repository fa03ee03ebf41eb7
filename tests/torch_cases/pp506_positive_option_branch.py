"""The twin of pp506_negative_option_branch.py: the same placeholders on the branches the defaults take
(`--onlyrot` on by default, `--w_chamfer` 0): made on the host and copied on every step, `high`."""

import argparse

import torch
import torch.nn.functional as F

parser = argparse.ArgumentParser()
parser.add_argument("--onlyrot", default=True, action="store_false")
parser.add_argument("--w_chamfer", "--w-chamfer", default=0.0, type=float)
args = parser.parse_args()
device = torch.device("cuda")


def train(model, loader, optimizer, bins_loss):
    for images, labels, depth in loader:
        images, labels, depth = images.to(device), labels.to(device), depth.to(device)
        logits, bin_edges = model(images)
        if args.onlyrot:
            loss = torch.Tensor([0]).to(device)  # expect: PP506 high
        else:
            loss = F.cross_entropy(logits, labels)
            logits = logits.detach()
        if args.w_chamfer > 0:
            l_chamfer = bins_loss(bin_edges, depth)
            bin_edges = bin_edges.detach()
        else:
            l_chamfer = torch.Tensor([0]).to(device)  # expect: PP506 high
        loss = loss + args.w_chamfer * l_chamfer
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
