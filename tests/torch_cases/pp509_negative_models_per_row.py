"""(torch-fix53) Loops PP509 leaves alone: federated averaging that moves each selected model to the host
(`nets[idx].cpu().state_dict()`: a model, not a row of a tensor), a meta-learner whose loop over the tasks of
a meta-batch adapts the classifier on each task (`self.net_forward(x=x_task, ...)`) before reading that
task's accuracy, and a method returning host values (`.cpu()` in it) whose rows are read."""

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


class MetaLearner(nn.Module):
    def __init__(self, classifier):
        super().__init__()
        self.classifier = classifier

    def net_forward(self, x, y, weights):
        preds = self.classifier.forward(x=x, params=weights)
        return F.cross_entropy(preds, y), preds

    def forward(self, data_batch, weights):
        x_support, x_target, y_support, y_target = data_batch
        accuracies = []
        for x_s, y_s, x_t, y_t in zip(x_support, y_support, x_target, y_target, strict=True):
            loss, preds = self.net_forward(x=x_s, y=y_s, weights=weights)
            target_loss, target_preds = self.net_forward(x=x_t, y=y_t, weights=weights)
            _, predicted = torch.max(target_preds.data, 1)
            accuracy = predicted.float().eq(y_t.data.float()).cpu().float()
            accuracies.extend(accuracy)
        return accuracies

    def run_train_iter(self, data_batch, weights, device):
        x_support, x_target, y_support, y_target = data_batch
        x_support = torch.Tensor(x_support).float().to(device=device)
        x_target = torch.Tensor(x_target).float().to(device=device)
        y_support = torch.Tensor(y_support).long().to(device=device)
        y_target = torch.Tensor(y_target).long().to(device=device)
        return self.forward(data_batch=(x_support, x_target, y_support, y_target), weights=weights)


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
