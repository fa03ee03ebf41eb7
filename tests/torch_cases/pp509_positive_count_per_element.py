"""torch-fix44 (tuned on hold-out 15): BERT4Rec's NDCG reads each user's answer count to the host with
`int(n)` in a comprehension straight over a tensor, one read per user of every validation batch."""

import torch


def recalls_and_ndcgs_for_ks(scores, labels, ks):
    metrics = {}
    answer_count = labels.sum(1)
    labels_float = labels.float()
    rank = (-scores).argsort(dim=1)
    for k in sorted(ks, reverse=True):
        hits = labels_float.gather(1, rank[:, :k])
        weights = 1 / torch.log2(torch.arange(2, 2 + k).float())
        dcg = (hits * weights.to(hits.device)).sum(1)
        idcg = torch.Tensor([weights[: min(int(n), k)].sum() for n in answer_count])  # expect: PP509
        metrics[f"NDCG@{k}"] = (dcg / idcg.to(dcg.device)).mean().item()
    return metrics


def kept_lengths(logits, lengths):
    best = torch.argmax(logits, dim=-1)
    kept = [row[: int(n)] for row, n in zip(best, lengths, strict=True)]
    return kept, [float(s) for i, s in enumerate(best)]  # expect: PP509
