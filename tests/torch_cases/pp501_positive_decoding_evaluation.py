"""PP501 (torch-fix151): an evaluation loop that decodes one image per pass with a beam search of its own body
(a `while True:` that picks tokens with `topk`, grows the sequences with `torch.cat` and breaks when they end)
and reads the image's id after it (show-edit-tell's `{"image_id": image_id.item(), ...}`, seven evaluators on
hold-out 49, read debatable: the search waits for the GPU at its every step already, one more wait per image
is noise). `medium`, not the evaluation reads' default; a plain evaluation loop that reads every batch stays
at the default."""

import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda")


class Decoder(nn.Module):
    def __init__(self, vocab=1000, dim=512):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTMCell(dim, dim)
        self.fc = nn.Linear(dim, vocab)
        self.encoder = nn.Linear(2048, dim)


def evaluate(decoder, loader, beam_size=3, vocab_size=1000):
    decoder.eval()
    results = []
    with torch.no_grad():
        for img, image_id in loader:
            image_id = image_id.to(device)
            features = decoder.encoder(img.to(device))
            k = beam_size
            k_prev_words = torch.zeros(k, 1, dtype=torch.long, device=device)
            seqs = k_prev_words
            top_k_scores = torch.zeros(k, 1, device=device)
            h = c = features.expand(k, -1)
            complete = []
            step = 1
            while True:
                h, c = decoder.lstm(decoder.embed(k_prev_words).squeeze(1), (h, c))
                scores = top_k_scores.expand(k, vocab_size) + F.log_softmax(decoder.fc(h), dim=1)
                top_k_scores, top_k_words = scores.view(-1).topk(k, 0, True, True)
                prev = top_k_words // vocab_size
                nxt = top_k_words % vocab_size
                seqs = torch.cat([seqs[prev], nxt.unsqueeze(1)], dim=1)
                done = [i for i, w in enumerate(nxt) if w == 2]  # expect: PP509
                if len(done) > 0:
                    complete.extend(seqs[done].tolist())
                k -= len(done)
                if k == 0 or step > 50:
                    break
                step += 1
            item_dict = {"image_id": image_id.item(), "caption": complete[0]}  # expect: PP501 medium
            results.append(item_dict)
    return results


def validate(model, loader, criterion):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.to(device), y.to(device)
            loss = criterion(model(x), y)
            total += loss.item()  # expect: PP501
    return total / len(loader)
