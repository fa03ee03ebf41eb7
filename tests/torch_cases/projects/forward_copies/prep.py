"""(torch-fix111) An offline preprocessing helper: a grid in a def no step follows stays at medium."""

import torch


def scene_graph(feats):
    node_idx = torch.arange(feats.size(0)).to(feats.device)  # expect: PP506
    return feats[node_idx]


def preprocess(scenes):
    graphs = []
    for scene in scenes:
        graphs.append(scene_graph(scene))
    return graphs
