import torch
from torch import nn


class CRF(nn.Module):
    def __init__(self, tagset_size, use_gpu):
        super().__init__()
        self.tagset_size = tagset_size
        self.use_gpu = use_gpu
        self.transitions = nn.Parameter(torch.randn(tagset_size, tagset_size))

    def forward(self, feats, tags):
        r = torch.LongTensor(range(feats.size(0)))
        if self.use_gpu:
            r = r.cuda()  # expect: PP506 high
        alphas = torch.Tensor(1, self.tagset_size).fill_(-10000.0)
        forward_var = torch.autograd.Variable(alphas)
        if self.use_gpu:
            forward_var = forward_var.cuda()  # expect: PP506 high
        chars = torch.autograd.Variable(torch.FloatTensor(torch.zeros((feats.size(0), feats.size(1)))))
        if self.use_gpu:
            chars = chars.cuda()  # expect: PP506 high
        return feats[r, tags].sum() + forward_var.sum() + chars.sum()


class Attention(nn.Module):
    def forward(self, weights, lengths, device):
        keys = torch.LongTensor(range(weights.size(-1))).unsqueeze(0).expand_as(weights)
        keys = keys.to(device)  # expect: PP506 high
        return weights.masked_fill(keys >= lengths.unsqueeze(-1), float("-inf"))


def evaluate(model, dev_iter, device):
    model.eval()
    with torch.no_grad():
        for batch in dev_iter:
            p1, p2 = model(batch)
            batch_size, c_len = p1.size()
            mask = (torch.ones(c_len, c_len) * float("-inf")).to(device).tril(-1)  # expect: PP506 high
            score = p1.unsqueeze(2) + p2.unsqueeze(1) + mask
            yield score.max(dim=1)
