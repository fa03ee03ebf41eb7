"""The same batch helper, called only by a beam-search decoder (once per article, under no_grad), not
by a training step."""

import torch
from torch.autograd import Variable


def get_input_from_batch(batch, use_cuda, hidden_dim=256):
    batch_size = len(batch.enc_lens)
    enc_batch = Variable(torch.from_numpy(batch.enc_batch).long())
    c_t_1 = Variable(torch.zeros((batch_size, 2 * hidden_dim)))
    coverage = Variable(torch.zeros(enc_batch.size()))
    if use_cuda:
        enc_batch = enc_batch.cuda()
        c_t_1 = c_t_1.cuda()
        coverage = coverage.cuda()
    return enc_batch, c_t_1, coverage
