"""torch-fix104: a loss summed over samples and read in the `else` of the remainder test that marks the
update (Social-STGCNN's `if batch_count % args.batch_size != 0: ... else: loss.backward();
optimizer.step(); loss_batch += loss.item()`): the branch runs on every optimizer step, so does the read."""

import torch

device = torch.device("cuda")


def train(model, loader, optimizer, graph_loss, batch_size):
    loss_batch, batch_count, is_first = 0.0, 0, True
    for obs, target in loader:
        batch_count += 1
        obs, target = obs.to(device), target.to(device)
        pred = model(obs)
        if batch_count % batch_size != 0:
            term = graph_loss(pred, target)
            if is_first:
                loss, is_first = term, False
            else:
                loss += term
        else:
            loss = loss / batch_size
            is_first = True
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            loss_batch += loss.item()  # expect: PP501
    return loss_batch / batch_count
