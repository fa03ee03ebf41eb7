"""A full-graph PPI script: the loader only batches the indices of the 20 training graphs, which the loop
then looks up in tensors already on the GPU. Nothing to load: no PP504 (PP505 at low, as for any loader of
data held in memory)."""

import torch
import torch.utils.data as Data

device = torch.device("cuda")
idx = torch.LongTensor(range(20))
loader = Data.DataLoader(dataset=idx, batch_size=1, shuffle=True, num_workers=0)  # expect: PP505 low
arange_loader = Data.DataLoader(torch.arange(20), batch_size=2, shuffle=True)  # expect: PP505 low


def train(model, optimizer, train_feat_list, train_adj_list, train_labels):
    model.train()
    for batch in loader:
        batch = batch.to(device)
        output = model(train_feat_list[batch[0]], train_adj_list[batch[0]])
        loss = torch.nn.functional.binary_cross_entropy(output, train_labels[batch[0]])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    for batch in arange_loader:
        batch = batch.to(device)
        output = model(train_feat_list[batch[0]], train_adj_list[batch[0]])
        loss = torch.nn.functional.binary_cross_entropy(output, train_labels[batch[0]])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
