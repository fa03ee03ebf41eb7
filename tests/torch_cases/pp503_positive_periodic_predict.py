"""A recommender trained on the full interaction matrix and scored every few epochs with its `predict`
method, after the step, under an `if` of the epoch loop: `predict` is the forward under another name, and
outside no_grad it records a graph nobody uses (review-mend3; `_method_forward` used to skip `predict`)."""

import torch


def train(model, optimizer, ratings, mask, held_out, epochs, log_every):
    for epoch in range(epochs):
        model.train()
        optimizer.zero_grad()
        recon = model(ratings)
        loss = ((recon - ratings) ** 2 * mask).sum() / mask.sum()
        loss.backward()
        optimizer.step()
        if epoch % log_every == 0:
            model.eval()
            scores = model.predict(ratings, mask)  # expect: PP503
            rmse = torch.sqrt(((scores - held_out) ** 2)[held_out > 0].mean())
            print(epoch, loss.item(), rmse.item())
    return model
