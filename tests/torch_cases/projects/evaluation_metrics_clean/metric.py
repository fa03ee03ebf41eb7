import torch  # noqa: F401  (the module is a torch module to ppcheck)


def hit_at_k(predictions, truth, k=10):
    _, indices = predictions.topk(k=k, largest=False)
    return (indices == truth).sum().item()


def label_count(labels):
    return len(labels)
