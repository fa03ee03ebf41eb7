# Near misses of pp505_positive_dict_entries.py: the entries are pinned, or their batches stay on the host.
import torch
from torch.utils.data import DataLoader


def train(config, source_set, target_set, network, optimizer):
    dset_loaders = {}
    dset_loaders["source"] = DataLoader(
        source_set, batch_size=36, shuffle=True, num_workers=4, pin_memory=True
    )
    dset_loaders["target"] = DataLoader(target_set, batch_size=36, shuffle=True, num_workers=4)
    network = network.cuda()
    len_source, len_target = len(dset_loaders["source"]), len(dset_loaders["target"])
    for i in range(config.num_iterations):
        if i % len_source == 0:
            iter_source = iter(dset_loaders["source"])
        if i % len_target == 0:
            iter_target = iter(dset_loaders["target"])
        inputs_source, labels_source = iter_source.next()
        inputs_target, _ = iter_target.next()
        inputs_source, labels_source = inputs_source.cuda(), labels_source.cuda()
        features, outputs = network(inputs_source)
        loss = torch.nn.functional.cross_entropy(outputs, labels_source)
        loss = loss + 0.0 * inputs_target.sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
