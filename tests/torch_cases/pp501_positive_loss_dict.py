import torch


def train_D(D, G, x_real, d_opt, z_dim):
    z = torch.randn(x_real.size(0), z_dim, device=x_real.device)
    d_loss = D(G(z)).mean() - D(x_real).mean()
    d_opt.zero_grad()
    d_loss.backward()
    d_opt.step()
    return {"d_loss": d_loss, "gp": d_loss * 0}


def train(D, G, data_loader, d_opt, writer, device, z_dim):
    D.train()
    for step, x_real in enumerate(data_loader):
        x_real = x_real.to(device)
        losses = train_D(D, G, x_real, d_opt, z_dim)
        for k, v in losses.items():
            writer.add_scalar(f"D/{k}", v.data.cpu().numpy(), global_step=step)  # expect: PP501


def train_accumulating(model, loader, optimizer, meter, args):
    model.train()
    for step, (x, y) in enumerate(loader):
        x, y = x.cuda(), y.cuda()
        loss = model(x, y) / args.gradient_accumulation_steps
        loss.backward()
        if (step + 1) % args.gradient_accumulation_steps == 0:
            meter.update(loss.item() * args.gradient_accumulation_steps)  # expect: PP501
            optimizer.step()
            optimizer.zero_grad()


def train_legacy(net, trainloader, criterion, optimizer):
    net.train()
    train_loss = 0
    for inputs, targets in trainloader:
        inputs, targets = inputs.cuda(), targets.cuda()
        loss = criterion(net(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        train_loss += loss.data[0]
        print(loss.item())  # expect: PP501
    return train_loss
