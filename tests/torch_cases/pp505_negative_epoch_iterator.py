import math

import torch.utils.data as data


def train(net, dataset, optimizer, criterion, batch_size, num_workers, max_epoch):
    epoch_size = math.ceil(len(dataset) / batch_size)
    for iteration in range(max_epoch * epoch_size):
        if iteration % epoch_size == 0:
            batch_iterator = iter(
                data.DataLoader(dataset, batch_size, shuffle=True, num_workers=num_workers, pin_memory=True)
            )
        images, targets = next(batch_iterator)
        images = images.cuda(non_blocking=True)
        loss = criterion(net(images), targets.cuda(non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def show_batches(net, dataset, steps):
    for _ in range(steps):
        looker = iter(data.DataLoader(dataset, batch_size=4, shuffle=True, num_workers=2))
        images, _ = next(looker)
        print(net(images.cuda()).shape)
