"""PP509 negative: comprehension filters over host values (a list of token ids read once with `.tolist()`,
tokens compared with a vocabulary's string) in a decoding loop."""

import torch


@torch.no_grad()
def decode(loader, model, vocab, device):
    captions = []
    for img, _ in loader:
        ids = model(img.to(device)).argmax(-1)[0].tolist()
        kept = [i for i in ids if i != vocab["<pad>"]]
        words = [vocab.itos[i] for i in kept]
        captions.append([w for w in words if w != vocab["<end>"]])
    return torch.tensor([len(c) for c in captions])
