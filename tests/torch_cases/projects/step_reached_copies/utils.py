import torch
from torch.autograd import Variable


def overlap_and_add(signal, frame_step):
    frames, frame_length = signal.size()[-2:]
    count = frame_step * (frames - 1) + frame_length
    frame = torch.arange(0, count).unfold(0, 2, 1)
    frame = signal.new_tensor(frame).long()  # expect: PP506
    result = signal.new_zeros(count, frame_length)
    result.index_add_(-2, frame.view(-1), signal)
    return result


def var_cuda(x, requires_grad=False):
    return Variable(x, requires_grad=requires_grad).cuda()
