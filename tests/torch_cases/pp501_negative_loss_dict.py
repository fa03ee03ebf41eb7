import torch


def train(model, loader, optimizer, writer, device, args):
    model.train()
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        losses = model(x, y)
        loss = sum(losses.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % args.log_every == 0:
            for k, v in losses.items():
                writer.add_scalar(k, v.item(), step)
            logged = {k: v.item() for k, v in losses.items()}
            print(logged)


def train_scaled(model, loader, optimizer, device):
    model.train()
    for x, y in loader:
        losses = model(x.to(device), y.to(device))
        total = sum(losses.values())
        total.backward()
        optimizer.step()
        weights = {k: torch.exp(-v.detach()) for k, v in losses.items()}
        model.reweight(weights)


def train_legacy(net, trainloader, criterion, optimizer, log_interval):
    net.train()
    for batch_idx, (inputs, targets) in enumerate(trainloader):
        inputs, targets = inputs.cuda(), targets.cuda()
        loss = criterion(net(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if batch_idx % log_interval == 0:
            print(batch_idx, loss.data[0])
        first = inputs.data[0]
        net.record(first)
