import torch
import torch.nn as nn


def log_sum_exp(vec):
    top = vec.max()
    return top + torch.log(torch.sum(torch.exp(vec - top)))


class BiLSTMCRF(nn.Module):
    def __init__(self, tag_to_ix, hidden_dim):
        super().__init__()
        self.tagset_size = len(tag_to_ix)
        self.lstm = nn.LSTM(hidden_dim, hidden_dim // 2, bidirectional=True)
        self.hidden2tag = nn.Linear(hidden_dim, self.tagset_size)
        self.transitions = nn.Parameter(torch.randn(self.tagset_size, self.tagset_size))

    def _forward_alg(self, feats):
        forward_var = torch.full((1, self.tagset_size), -10000.0)
        for feat in feats:
            alphas_t = []
            for next_tag in range(self.tagset_size):  # expect: PP509 low
                emit_score = feat[next_tag].view(1, 1).expand(1, self.tagset_size)
                trans_score = self.transitions[next_tag].view(1, -1)
                next_tag_var = forward_var + trans_score + emit_score
                alphas_t.append(log_sum_exp(next_tag_var).view(1))
            forward_var = torch.cat(alphas_t).view(1, -1)
        return log_sum_exp(forward_var)
