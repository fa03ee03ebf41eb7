import pickle

import dgl
import torch


class SuperPixDataset:
    """Graphs of image superpixels, unpickled whole, batched by a collate that merges them into one
    DGLGraph."""

    def __init__(self, name):
        with open(name + ".pkl", "rb") as f:
            self.train, self.val, self.test = pickle.load(f)

    def collate(self, samples):
        graphs, labels = map(list, zip(*samples, strict=True))
        labels = torch.tensor(labels)
        snorm_n = torch.cat([torch.full((g.number_of_nodes(), 1), 1.0 / g.number_of_nodes()) for g in graphs])
        batched_graph = dgl.batch(graphs)
        return batched_graph, labels, snorm_n
