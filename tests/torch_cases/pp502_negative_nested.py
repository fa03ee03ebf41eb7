"""A total reset at the top of every step and summed in an inner loop feeds that step's backward."""

import torch.nn.functional as F


def train(model, source_loader, optimizer, num_class, device, spreads):
    for data, label in source_loader:
        data, label = data.to(device), label.to(device)
        optimizer.zero_grad()
        out, per_class = model(data)
        class_loss = 0.0
        domain_loss = 0.0
        spread = 0
        for k in range(num_class):
            loss_k = F.nll_loss(F.log_softmax(per_class[k], dim=1), label)
            class_loss += loss_k
            domain_loss += F.nll_loss(F.log_softmax(-per_class[k], dim=1), label)
            spread += 1 - 2 * loss_k
        local_loss = 0.01 * (class_loss + domain_loss)
        loss = F.nll_loss(F.log_softmax(out, dim=1), label) + local_loss
        loss.backward()
        optimizer.step()
        spreads.append(spread.detach())
