import torch


def get_recall(indices, targets):
    targets = targets.view(-1, 1).expand_as(indices)
    hits = (targets == indices).nonzero()
    if len(hits) == 0:
        return 0
    return hits.size(0) / targets.size(0)


def get_mrr(indices, targets):
    targets = targets.view(-1, 1).expand_as(indices)
    hits = (targets == indices).nonzero()
    ranks = hits[:, -1] + 1
    rranks = torch.reciprocal(ranks.float())
    mrr = torch.sum(rranks).data / targets.size(0)
    return mrr.item()  # expect: PP501


def evaluate(logits, targets, k=20):
    _, indices = torch.topk(logits, k, -1)
    recall = get_recall(indices, targets)
    mrr = get_mrr(indices, targets)
    return recall, mrr
