"""Reads behind an `if` that is a real step guard, or in an `except`: not every step."""

import torch

device = torch.device("cuda")


def fit(detector, loader, optimizer, history, log_every):
    for step, batch in enumerate(loader):
        try:
            total = detector(batch["image"].to(device)).mean()
            total.backward()
            optimizer.step()
            if step % log_every == 0:
                history.append(float(total))
        except RuntimeError:
            print("skipped", float(total))


def train_gpt(model, batches, optimizer, master_process, steps):
    for step in range(steps):
        x, y = next(batches)
        logits, loss = model(x.to(device), y.to(device))
        loss.backward()
        optimizer.step()
        if master_process and step % 100 == 0:
            print("step", step, loss.item())


def train_denoiser(ddpm, loader, optim, bar, best):
    for x, _ in loader:
        optim.zero_grad()
        loss = ddpm(x.to(device))
        loss.backward()
        optim.step()
        if best is None:
            best = loss.item()


def train_score(score_fn, loader, optimizer, writer):
    for step, (x, _) in enumerate(loader):
        loss = score_fn(x.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        writer.add_scalar("train/lr", optimizer.param_groups[0]["lr"], global_step=step)
