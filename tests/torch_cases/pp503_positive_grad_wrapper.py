import numpy as np
import torch


class PairScorer:
    """The same scorer without no_grad: its forward records a graph nobody uses."""

    def __init__(self, model, use_cuda):
        self.model = model
        self.use_cuda = use_cuda

    def __call__(self, x, y):
        x, y = torch.from_numpy(x).long(), torch.from_numpy(y).long()
        if self.use_cuda:
            x, y = x.cuda(), y.cuda()
        zx, zy = self.model(x), self.model(y)
        return torch.cosine_similarity(zx.mean(1), zy.mean(1)).detach().cpu().numpy()


def score_pairs(model, x0, x1, batch_size=100):
    scores = []
    for i in range(0, len(x0), batch_size):
        scores.append(model(x0[i : i + batch_size], x1[i : i + batch_size]))  # expect: PP503 high
    return np.concatenate(scores, 0)


def main(path, pairs, use_cuda):
    model = torch.load(path)
    model.eval()
    if use_cuda:
        model.cuda()
    model = PairScorer(model, use_cuda)
    for x0, x1 in pairs:
        print(score_pairs(model, x0, x1).mean())  # expect: PP503 high
