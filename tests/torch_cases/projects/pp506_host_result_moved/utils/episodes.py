import torch


def way_labels(n_way, n_shot, episodes=1):
    labels = torch.arange(n_way).unsqueeze(1).expand(n_way, n_shot).reshape(-1)
    labels = labels.repeat(episodes)
    return labels


def way_labels_on(n_way, n_shot, device=None):
    labels = torch.arange(n_way, device=device).repeat_interleave(n_shot)
    return labels


def shuffled(labels):
    order = labels.argsort()
    return labels[order]
