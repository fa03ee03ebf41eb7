import torch


def train_gan(netD, netG, loader, optD, optG, criterion, noise):
    for real, _ in loader:
        fake = netG(noise)
        d_loss = criterion(netD(real), 1) + criterion(netD(fake), 0)
        d_loss.backward(retain_graph=True)
        optD.step()
        g_loss = criterion(netD(fake), 1)
        g_loss.backward()
        optG.step()


def jacobian_rows(x, f):
    y = f(x)
    rows = []
    for i in range(y.shape[0]):
        y[i].backward(retain_graph=True)
        rows.append(x.grad.clone())
        x.grad.zero_()
    return torch.stack(rows)


def train(model, loader, optimizer, criterion, retain):
    for x, y in loader:
        criterion(model(x), y).backward(retain_graph=retain)
        optimizer.step()
