"""A PyTorch 0.3 language-model script clips with `clip_grad_norm` (no underscore) and logs the norm it
returns: before 0.4 that function summed the norms on the host and returned a Python float, so logging it waits
for nothing the call had not already waited for (review 21 item 2)."""

import torch
from tensorboardX import SummaryWriter
from torch.autograd import Variable

writer = SummaryWriter()


def train_epoch(model, batches, optimizer, clip):
    model = model.cuda()
    for step, (data, targets) in enumerate(batches):
        data, targets = Variable(data.cuda()), Variable(targets.cuda())
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(data), targets)
        loss.backward()
        grad_norm = torch.nn.utils.clip_grad_norm(model.parameters(), clip)
        writer.add_scalar("grad_norm", grad_norm, step)
        optimizer.step()
