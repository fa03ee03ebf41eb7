"""A GAN-style trainer imports the clipping function by name and logs the norm it returns for each batch:
`clip_grad_norm_` is the same function however it is imported, so the log reads a device tensor every step
(review 21 item 2: only the dotted `nn.utils.clip_grad_norm_(...)` was seen)."""

from torch import nn
from torch.nn.utils import clip_grad_norm_ as clip_gradients
from torch.utils.tensorboard import SummaryWriter


def fit(net, batches, opt, max_norm, log_dir):
    writer = SummaryWriter(log_dir)
    net = net.cuda()
    criterion = nn.MSELoss()
    for it, (inputs, targets) in enumerate(batches):
        inputs, targets = inputs.cuda(), targets.cuda()
        opt.zero_grad()
        loss = criterion(net(inputs), targets)
        loss.backward()
        total_norm = clip_gradients(net.parameters(), max_norm)
        writer.add_scalar("train/total_norm", total_norm, it)  # expect: PP501
        opt.step()
    writer.close()
