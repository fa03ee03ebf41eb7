"""Reads that run on every step although an `if` or a `try` is around them (hold-out 4 misses): a step wrapped
in try/except, a branch on the process or the configuration, the later branch of a first-time test, a tensor
handed to a tensorboard writer."""

import torch
import torch.distributed as dist

device = torch.device("cuda")


def reduce_mean(t, n):
    dist.all_reduce(t)
    return t / n


def fit(detector, loader, optimizer, history):
    for batch in loader:
        try:
            optimizer.zero_grad()
            total = detector(batch["image"].to(device)).mean()
            total.backward()
            optimizer.step()
            history.append(float(total))  # expect: PP501
        except RuntimeError as err:
            print(err)


def train_vocoder(net, loader, optimizer, criterion, num_gpus):
    for i, (mel, wav) in enumerate(loader):
        mel, wav = mel.cuda(), wav.cuda()
        loss = criterion(net(mel), wav)
        if num_gpus > 1:
            shown = reduce_mean(loss.detach(), num_gpus).item()  # expect: PP501
            print("reduced over", num_gpus)
        else:
            shown = loss.item()
        loss.backward()
        optimizer.step()
        print(i, shown)


def train_gpt(model, batches, optimizer, master_process, steps):
    for step in range(steps):
        x, y = next(batches)
        logits, loss = model(x.to(device), y.to(device))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if master_process:
            print("step", step, loss.item())  # expect: PP501


def train_denoiser(ddpm, loader, optim, bar):
    ema = None
    for x, _ in loader:
        optim.zero_grad()
        loss = ddpm(x.to(device))
        loss.backward()
        if ema is None:
            ema = loss.item()
            print("first loss", ema)
        else:
            ema = 0.95 * ema + 0.05 * loss.item()  # expect: PP501
        bar.set_description(f"loss {ema:.3f}")
        optim.step()


def train_score(score_fn, loader, optimizer, writer):
    for step, (x, _) in enumerate(loader):
        x = x.to(device)
        loss = score_fn(x)
        writer.add_scalar("train/loss", loss, global_step=step)  # expect: PP501
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
