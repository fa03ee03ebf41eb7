import torch


def train(model, loader, clip, optimizer, device):
    weights = [1.0, 2.0]
    for x, _y in loader:
        # (review 24 item 5) `clip` is a project's clip sampler passed in, not OpenAI's CLIP (no `import clip`):
        # it may change `weights` in place, so the tensor made of them is not the same on every step
        clip.rescale(weights, x)
        w = torch.tensor(weights).to(device)
        loss = (model(x.to(device)) * w).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
