import numpy as np
import torch
import torch.nn as nn


class FPN(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.lateral = nn.ModuleList(nn.Conv2d(c, 256, 1) for c in channels)

    def forward(self, feats):
        outs = []
        for i in range(len(feats)):
            outs.append(self.lateral[i](feats[i]))
        return torch.cat([o.flatten(2) for o in outs], dim=2)


class Decoder(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.cell = nn.GRUCell(hidden, hidden)

    def forward(self, x, h):
        outputs = []
        for t in range(x.size(1)):
            h = self.cell(x[:, t], h)
            outputs.append(h)
        return torch.stack(outputs, dim=1)


def per_class_loss(pred, target, num_classes):
    losses = []
    for c in range(num_classes):
        losses.append(torch.nn.functional.binary_cross_entropy(pred[:, c], target[:, c]))
    return torch.stack(losses)


def collate(batch):
    images = torch.stack([torch.from_numpy(np.asarray(sample["image"])) for sample in batch])
    labels = torch.tensor([sample["label"] for sample in batch])
    return images, labels


def heads(model, x):
    outputs = model(x)
    return torch.cat([o.view(o.size(0), -1, 85) for o in outputs], 1)


def total_of(losses):
    total = 0.0
    for i in range(len(losses)):
        total = total + losses[i]
    return total


def report(model, loader):
    logits = model(next(iter(loader))[0])
    for i in range(logits.size(0)):
        print(logits[i].item())


def plot_colors(data):
    colors = []
    for item in range(len(data)):
        n = data[item].size()[0]
        colors.append(torch.randint(0, 256, (1, 3)).expand(n, 3))
    return torch.cat(colors, dim=0)


def evaluate(agent, env, episodes, device):
    returns = []
    episode_return = torch.zeros(env.num_envs, device=device)
    while len(returns) < episodes:
        obss, rewards, dones = env.step(agent.get_actions(env.obss))
        episode_return += torch.tensor(rewards, device=device)
        for i, done in enumerate(dones):
            if done:
                returns.append(episode_return[i].item())
    return returns


def fold_accuracy(thresholds, dist, actual, calculate_accuracy):
    acc_train = np.zeros(len(thresholds))
    for threshold_idx, threshold in enumerate(thresholds):
        _, _, acc_train[threshold_idx], _, _ = calculate_accuracy(threshold, dist, actual)
    return acc_train
