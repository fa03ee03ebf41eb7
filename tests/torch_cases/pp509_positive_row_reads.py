"""Loops over a batch's rows that read a row or element of a device tensor to the host in every pass
(torch-fix48): knowledge-graph ranking, hard-negative sampling, per-sample lengths, per-video predictions,
per-hypothesis token lists. One read of the batch before the loop, or one vectorised op, does them all."""

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def rank_triples(model, test_batches, device):
    logs = []
    with torch.no_grad():
        for positive, negative, bias in test_batches:
            positive, negative, bias = positive.to(device), negative.to(device), bias.to(device)
            score = model((positive, negative)) + bias
            argsort = torch.argsort(score, dim=1, descending=True)
            target = positive[:, 2]
            batch_size = positive.size(0)
            for i in range(batch_size):
                ranking = (argsort[i, :] == target[i]).nonzero()  # expect: PP509 medium
                ranking = 1 + ranking.item()
                logs.append({"MRR": 1.0 / ranking, "HITS@10": 1.0 if ranking <= 10 else 0.0})
    return logs


def filtered_scores(model, batches, known, use_cuda):
    for batch in batches:
        e1 = torch.tensor(batch[:, 0])
        e2 = torch.tensor(batch[:, 2])
        if use_cuda:
            e1, e2 = e1.cuda(), e2.cuda()
        predictions = model.forward(e1)
        for j in range(batch.shape[0]):
            value = predictions[j, e2[j]].item()  # expect: PP509 medium
            predictions[j, known[j]] = 0.0
            predictions[j, e2[j]] = value


class Matcher(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.image_proj = nn.Linear(dim, dim)
        self.text_proj = nn.Linear(dim, dim)

    def forward(self, image_embeds, text_embeds):
        image_feat = F.normalize(self.image_proj(image_embeds), dim=-1)
        text_feat = F.normalize(self.text_proj(text_embeds), dim=-1)
        weights = F.softmax(text_feat @ image_feat.t(), dim=1)
        negatives = []
        for b in range(image_embeds.size(0)):
            neg_idx = torch.multinomial(weights[b], 1).item()  # expect: PP509 medium
            negatives.append(image_embeds[neg_idx])
        return torch.stack(negatives, dim=0)


def train(model, loader, optimizer, device, segment):
    for batch in loader:
        batch = [b.to(device) for b in batch]
        mels, mel_lengths = batch
        pieces = []
        for k in range(len(mel_lengths)):
            length = int(mel_lengths[k].item())  # expect: PP509 medium
            start = np.random.randint(0, length - segment)
            pieces.append(mels[k, :, start : start + segment])
        loss = model(torch.stack(pieces)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def video_ranks(net, loader, num_classes):
    predictions = []
    with torch.no_grad():
        for data in loader:
            num_vids = data.size(0)
            output = net(data.view(-1, 3, 32, 32).cuda())
            for vid in output.view(num_vids, -1, num_classes):
                predictions.append(
                    vid.argmax(1).to("cpu").numpy()  # expect: PP509 medium  # expect: PP501
                )
    return predictions


def decode_batches(model, loader, vocab):
    words = []
    for x in loader:
        ids = model(x).argmax(-1)  # expect: PP503
        for j in range(len(ids)):
            token = ids[j].item()  # expect: PP509 medium
            words.append(vocab[token])
    return words


class Prompted(nn.Module):
    def __init__(self, lm, vocab_ids):
        super().__init__()
        self.lm = lm
        self.vocab_ids = vocab_ids

    def forward(self, queries, labels):
        bz = queries.shape[0]

        def top_hits():
            logits = self.lm(queries)
            pred_ids = torch.argsort(logits, dim=2, descending=True)
            hits = 0
            for i in range(bz):
                pred_seq = pred_ids[i, labels[i, 0]].tolist()  # expect: PP509 medium
                first = next(p for p in pred_seq if p in self.vocab_ids)
                hits += int(first == labels[i, 1])
            return hits

        return top_hits()
