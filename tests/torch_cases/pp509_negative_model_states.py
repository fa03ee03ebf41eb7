"""(torch-fix53) Loops PP509 leaves alone: federated averaging that moves each selected model to the host
(`nets[idx].cpu().state_dict()`: a model, not a row of a tensor), and a method that returns a tuple of
names and a moved batch, whose names (no tensor) are looped over."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def init_nets(n_parties):
    return {i: nn.Linear(10, 2) for i in range(n_parties)}


def federated_rounds(n_parties, rounds, weights, device):
    nets = init_nets(n_parties)
    for _ in range(rounds):
        selected = list(range(n_parties))
        for idx in selected:
            nets[idx].to(device)
        global_para = {}
        for idx in range(len(selected)):
            net_para = nets[selected[idx]].cpu().state_dict()
            for key in net_para:
                global_para[key] = global_para.get(key, 0) + net_para[key] * weights[idx]
        for idx in selected:
            nets[idx].load_state_dict(global_para)
    return nets


class SpeechGAN(nn.Module):
    def __init__(self, generator):
        super().__init__()
        self.G = generator

    def sample_batch(self, loader, device):
        names, clean = next(iter(loader))
        return names, clean.to(device)

    def train_step(self, loader, optimizer, device):
        names, clean = self.sample_batch(loader, device)
        enhanced = self.G(clean)
        mask = torch.zeros(clean.size(0), 1, clean.size(-1), device=device)
        for i, name in enumerate(names):
            if "additive" in name:
                mask[i, 0, :] = 1.0
        loss = F.l1_loss(enhanced * mask, clean * mask)
        loss.backward()
        optimizer.step()
