import math

import torch.utils.data as data


def train(net, dataset, optimizer, criterion, bs, workers, max_epoch):
    epoch = 0
    epoch_size = math.ceil(len(dataset) / bs)
    for iteration in range(max_epoch * epoch_size):
        if iteration % epoch_size == 0:
            # create batch iterator
            batch_iterator = iter(
                data.DataLoader(dataset, bs, shuffle=True, num_workers=workers)  # expect: PP505 medium
            )
            epoch += 1
        images, targets = next(batch_iterator)
        images = images.cuda()
        targets = [anno.cuda() for anno in targets]
        out = net(images)
        optimizer.zero_grad()
        loss_l, loss_c = criterion(out, targets)
        loss = loss_l + loss_c
        loss.backward()
        optimizer.step()
