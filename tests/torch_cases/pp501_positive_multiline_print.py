"""A log line printed over several source lines, its `.item()` reads on the last (hold-out 13's
RetinaFace): the finding points at the line that reads, not at the `print`."""

import torch


def train(net, criterion, optimizer, batches, max_iter):
    net = net.cuda()
    for iteration in range(max_iter):
        images, targets = next(batches)
        out = net(images.cuda())
        optimizer.zero_grad()
        loss_l, loss_c = criterion(out, [t.cuda() for t in targets])
        loss = loss_l + loss_c
        loss.backward()
        optimizer.step()
        print(
            "Iter:",
            iteration + 1,
            "|| Loc:",
            round(loss_l.item(), 4),  # expect: PP501
            "Cla:",
            round(loss_c.item(), 4),
        )
    torch.save(net.state_dict(), "final.pth")
