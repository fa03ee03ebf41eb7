"""A length mask's range made on the host, expanded, wrapped in `Variable` (the tensor itself since torch 0.4)
and moved when the lengths are on the GPU, at every call of the masked loss (torch-fix102): the wrapper is no
hop of its own, so the trace reaches `torch.arange` and the finding names its line."""

import torch
import torch.nn.functional as F
from torch.autograd import Variable


def sequence_mask(sequence_length, max_len=None):
    if max_len is None:
        max_len = sequence_length.data.max()
    batch_size = sequence_length.size(0)
    seq_range = torch.arange(0, max_len).long()
    seq_range_expand = seq_range.unsqueeze(0).expand(batch_size, max_len)
    seq_range_expand = Variable(seq_range_expand)
    if sequence_length.is_cuda:
        seq_range_expand = seq_range_expand.cuda()  # expect: PP506 high
    seq_length_expand = sequence_length.unsqueeze(1).expand_as(seq_range_expand)
    return seq_range_expand < seq_length_expand


def masked_cross_entropy(logits, target, length):
    log_probs = F.log_softmax(logits.view(-1, logits.size(-1)), dim=1)
    losses = -torch.gather(log_probs, dim=1, index=target.view(-1, 1)).view(*target.size())
    mask = sequence_mask(sequence_length=length, max_len=target.size(1))
    return (losses * mask.float()).sum() / length.float().sum()


def train(model, optimizer, batches):
    for inputs, target, length in batches:
        optimizer.zero_grad()
        logits = model(inputs.cuda())
        loss = masked_cross_entropy(logits, target.cuda(), length.cuda())
        loss.backward()
        optimizer.step()
