"""A summariser's batch helper (pointer_summarizer's training_ptr_gen/train_util.py, hold-out 10): the
decoder's initial context and coverage are made on the CPU and moved under `if use_cuda:` on every call;
the trainer's training step calls it on every batch."""

import torch
from torch.autograd import Variable


def get_input_from_batch(batch, use_cuda, hidden_dim=256):
    batch_size = len(batch.enc_lens)
    enc_batch = Variable(torch.from_numpy(batch.enc_batch).long())
    c_t_1 = Variable(torch.zeros((batch_size, 2 * hidden_dim)))
    coverage = Variable(torch.zeros(enc_batch.size()))
    if use_cuda:
        enc_batch = enc_batch.cuda()
        c_t_1 = c_t_1.cuda()  # expect: PP506
        coverage = coverage.cuda()  # expect: PP506
    return enc_batch, c_t_1, coverage
