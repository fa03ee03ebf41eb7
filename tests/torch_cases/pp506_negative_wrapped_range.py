"""Clean twin of pp506_positive_wrapped_range.py (torch-fix102): the range made where the lengths are, so
nothing is copied, and a wrapped tensor of the batch's own lengths, which must be copied whatever it holds."""

import torch
import torch.nn.functional as F
from torch.autograd import Variable


def sequence_mask(sequence_length, max_len=None):
    if max_len is None:
        max_len = sequence_length.data.max()
    batch_size = sequence_length.size(0)
    seq_range = torch.arange(0, max_len, device=sequence_length.device).long()
    seq_range_expand = seq_range.unsqueeze(0).expand(batch_size, max_len)
    seq_range_expand = Variable(seq_range_expand)
    seq_length_expand = sequence_length.unsqueeze(1).expand_as(seq_range_expand)
    return seq_range_expand < seq_length_expand


def masked_cross_entropy(logits, target, length, lengths_list=(1, 2)):
    log_probs = F.log_softmax(logits.view(-1, logits.size(-1)), dim=1)
    losses = -torch.gather(log_probs, dim=1, index=target.view(-1, 1)).view(*target.size())
    lengths = torch.LongTensor(lengths_list)
    lengths = Variable(lengths)
    if target.is_cuda:
        lengths = lengths.cuda()
    mask = sequence_mask(sequence_length=lengths, max_len=target.size(1))
    return (losses * mask.float()).sum() / length.float().sum()


def train(model, optimizer, batches):
    for inputs, target, length in batches:
        optimizer.zero_grad()
        logits = model(inputs.cuda())
        loss = masked_cross_entropy(logits, target.cuda(), length.cuda())
        loss.backward()
        optimizer.step()
