"""A continual-learning method's `observe` (mammoth's shape, hold-out 23): backward and an optimizer step
once per call, `return loss.item()`, in a module that places nothing on a GPU (the training script of another
module moves the batches and calls `observe` every step). `high` since torch-fix90
(`UNPLACED_STEP_READ_LEVEL`)."""

import torch
import torch.nn.functional as F


class Replay(torch.nn.Module):
    def __init__(self, net, lr):
        super().__init__()
        self.net = net
        self.opt = torch.optim.SGD(self.net.parameters(), lr=lr)

    def observe(self, inputs, labels):
        self.opt.zero_grad()
        loss = F.cross_entropy(self.net(inputs), labels)
        loss.backward()
        self.opt.step()
        return loss.item()  # expect: PP501 high
