import torch
from torch.nn import functional


def sequence_mask(sequence_length, max_len):
    batch_size = sequence_length.size(0)
    seq_range = torch.arange(0, max_len).long()
    seq_range_expand = seq_range.unsqueeze(0).expand(batch_size, max_len)
    seq_range_expand = seq_range_expand.cuda()  # expect: PP506
    return seq_range_expand < sequence_length.unsqueeze(1)


def masked_cross_entropy(logits, target, length):
    length = torch.LongTensor(length).cuda()
    log_probs = functional.log_softmax(logits.view(-1, logits.size(-1)), dim=1)
    losses = -torch.gather(log_probs, dim=1, index=target.view(-1, 1)).view(*target.size())
    mask = sequence_mask(length, target.size(1))
    return (losses * mask.float()).sum() / length.float().sum()
