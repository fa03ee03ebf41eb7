import clip
import torch


def train(model, loader, optimizer, device):
    weights = [1.0, 2.0]
    for x, _y in loader:
        # (review 24 item 5) with `import clip`, `clip.tokenize` is OpenAI's CLIP, which does not change `weights`
        tokens = clip.tokenize(["a photo"], weights)
        w = torch.tensor(weights).to(device)  # expect: PP506 high
        loss = (model(x.to(device), tokens) * w).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
