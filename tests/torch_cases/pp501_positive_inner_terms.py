"""Reads in a loop nested in the training step that computes the step's loss one term at a time (a linear
probe per head, hold-out 15's self-label; a recurrent sub-batch loop, hold-out 14's torch-ac), and a
gradient norm read parameter by parameter: each runs on every step, once per head, sub-batch or parameter."""

import torch


def train_probes(model, loader, optimizer, criterion, meters):
    model.train()
    for inputs, labels in loader:
        inputs, labels = inputs.to("cuda:0"), labels.to("cuda:0")
        predictions = model(inputs)
        total_loss = None
        for i, prediction in enumerate(predictions):
            loss = criterion(prediction, labels)
            total_loss = loss if total_loss is None else total_loss + loss
            meters[i].update(loss.item(), inputs.size(0))  # expect: PP501
        optimizer.zero_grad()
        total_loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()


def update_recurrent(acmodel, optimizer, exps, batches, recurrence, logs):
    acmodel.cuda()
    for inds in batches:
        batch_entropy = 0
        batch_loss = 0
        for i in range(recurrence):
            sb = exps[inds + i]
            dist, value = acmodel(sb.obs)
            entropy = dist.entropy().mean()
            loss = (value - sb.returnn).pow(2).mean() - 0.01 * entropy
            batch_entropy += entropy.item()  # expect: PP501
            batch_loss += loss
        batch_loss /= recurrence
        optimizer.zero_grad()
        batch_loss.backward()
        grad_norm = sum(p.grad.data.norm(2).item() ** 2 for p in acmodel.parameters()) ** 0.5
        optimizer.step()
        logs.append((batch_entropy, grad_norm))
