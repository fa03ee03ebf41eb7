import torch
import torch.nn as nn
from torch.utils.data import DataLoader

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train_epoch(model, loader: DataLoader, optimizer, criterion):
    model.train()
    running_loss, correct = 0.0, 0
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        optimizer.zero_grad()
        outputs = model(images)
        loss = criterion(outputs, labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()  # expect: PP501
        correct += (outputs.argmax(1) == labels).sum().item()
    return running_loss / len(loader), correct


def train_gan(netD, netG, dataloader, optD, nz=100):
    criterion = nn.BCELoss()
    for i, (real, _) in enumerate(dataloader):
        real = real.cuda()
        noise = torch.randn(real.size(0), nz, 1, 1, device=device)
        errD = criterion(netD(real), torch.ones(real.size(0), device=device))
        errD.backward()
        optD.step()
        print(f"[{i}/{len(dataloader)}] Loss_D: {errD:.4f}")  # expect: PP501
        netG(noise).detach()


def fit(model, batches, opt, history):
    for x, y in batches:
        loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        history["loss"].append(loss.detach().cpu().numpy())  # expect: PP501


def fit_running_total(model, batches, opt):
    total = 0.0
    for x, y in batches:
        loss = nn.functional.mse_loss(model(x.to(device)), y.to(device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        total = total + float(loss)  # expect: PP501
    return total
