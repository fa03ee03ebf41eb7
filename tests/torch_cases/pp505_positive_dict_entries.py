# Loaders kept in a dict filled key by key, drawn from with `iter(...)` and Python 2's `.next()` (hold-out
# 18's CDAN): each entry is its own loader.
import torch
from torch.utils.data import DataLoader


def train(config, source_set, target_set, network, optimizer):
    dset_loaders = {}
    dset_loaders["source"] = DataLoader(source_set, batch_size=36, num_workers=4)  # expect: PP505 medium
    dset_loaders["target"] = DataLoader(target_set, batch_size=36, num_workers=4)  # expect: PP505 medium
    network = network.cuda()
    len_source, len_target = len(dset_loaders["source"]), len(dset_loaders["target"])
    for i in range(config.num_iterations):
        if i % len_source == 0:
            iter_source = iter(dset_loaders["source"])
        if i % len_target == 0:
            iter_target = iter(dset_loaders["target"])
        inputs_source, labels_source = iter_source.next()
        inputs_target, _ = iter_target.next()
        inputs_source, inputs_target, labels_source = (
            inputs_source.cuda(),
            inputs_target.cuda(),
            labels_source.cuda(),
        )
        features, outputs = network(torch.cat((inputs_source, inputs_target), dim=0))
        loss = torch.nn.functional.cross_entropy(outputs[: inputs_source.size(0)], labels_source)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
