# ruff: noqa: UP031
import torch
from tqdm import trange

DEVICE = torch.device("cuda:0")


def train(net_D, loss_fn, optim_D, looper, total_steps, device=DEVICE):
    with trange(1, total_steps + 1, desc="Training") as pbar:
        for step in pbar:
            real = next(looper).to(device)
            loss = loss_fn(net_D(real))
            optim_D.zero_grad()
            loss.backward()
            optim_D.step()
            if step % 100 == 0:
                pbar.set_postfix(loss="%.4f" % loss)
            pbar.set_description("step %d" % step)


def fit(model, criterion, opt, loader, log):
    model.cuda()
    for epoch, (x, y) in enumerate(loader):
        loss = criterion(model(x.cuda()), y.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()
        log.info(f"epoch {epoch}")
