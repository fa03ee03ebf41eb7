import torch
import torch.nn as nn
from utils import *  # noqa: F403


def train(args, model, train_loader, optimizer, device):
    model.train()
    criterion = nn.CrossEntropyLoss()
    for imgs1, labels, imgs2 in train_loader:
        imgs1, labels, imgs2 = imgs1.to(device), labels.to(device), imgs2.to(device)
        output, hm1 = model(imgs1)
        _, hm2 = model(imgs2)
        grid_l = generate_flip_grid(args.w, args.h, device)  # noqa: F405
        flip = nn.functional.grid_sample(hm2, grid_l.expand(hm2.size(0), -1, -1, -1).permute(0, 2, 3, 1))
        loss = criterion(output, labels) + args.lam * (hm1 - flip).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(args, model, train_loader, optimizer, device):
    for _ in range(args.epochs):
        train(args, model, train_loader, optimizer, device)


if __name__ == "__main__":
    torch.manual_seed(0)
    main(None, None, None, None, "cuda")
