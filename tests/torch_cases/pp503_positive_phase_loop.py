"""A VAE script's shape: one loop body for every split, the step under `if split == "train":`."""

import torch
from torch.utils.data import DataLoader


def fit(model, datasets, args):
    optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
    splits = ["train", "valid"] + (["test"] if args.test else [])
    for epoch in range(args.epochs):
        for split in splits:
            loader = DataLoader(
                datasets[split], batch_size=32, shuffle=split == "train", num_workers=4, pin_memory=True
            )
            if split == "train":
                model.train()
            else:
                model.eval()
            total = 0.0
            for batch in loader:
                x = batch["input"].cuda(non_blocking=True)
                recon, kl = model(x)  # expect: PP503
                loss = torch.nn.functional.mse_loss(recon, x) + kl
                if split == "train":
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
                total += loss.detach()
            print(split, epoch, float(total))


def fit_phases(model, loaders, optimizer, epochs):
    for _epoch in range(epochs):
        for phase in ("train", "val"):
            model.train(phase == "train")
            for x, y in loaders[phase]:
                out = model(x.cuda())  # expect: PP503
                loss = torch.nn.functional.cross_entropy(out, y.cuda())
                if phase != "val":
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
