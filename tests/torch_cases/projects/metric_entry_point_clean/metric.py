import torch


def get_mrr(indices, targets):
    targets = targets.view(-1, 1).expand_as(indices)
    hits = (targets == indices).nonzero()
    rranks = torch.reciprocal((hits[:, -1] + 1).float())
    return (torch.sum(rranks) / targets.size(0)).item()


def evaluate(logits, targets, k=20):
    mrrs = []
    for chunk, target in zip(logits.split(64), targets.split(64), strict=True):
        _, indices = torch.topk(chunk, k, -1)
        mrrs.append(get_mrr(indices, target))
    return 0.0, sum(mrrs) / len(mrrs)
