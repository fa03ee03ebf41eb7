"""PP510: waits that do not run on the step, or time a loop as a whole."""

import time

import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
# the loss of a speaker encoder is computed on the CPU
loss_device = torch.device("cpu")


def sync(device: torch.device):
    # for correct profiling (cuda operations are async)
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def sync_disabled(device: torch.device):
    # FIXME
    return
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def train(model, loader, optimizer, profiler):
    for batch in loader:
        embeds = model(batch.to(device))
        sync_disabled(device)
        profiler.tick("forward")
        loss, eer = model.loss(embeds.to(loss_device))
        sync(loss_device)
        profiler.tick("loss")
        model.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    net = torch.nn.Conv2d(6, 64, 1).to(device)
    inputs = torch.rand((8, 6, 1024, 1)).to(device)
    st = time.time()
    runs = 1000
    with torch.no_grad():
        for _ in range(runs):
            net(inputs)
            torch.cuda.synchronize()
    print(time.time() - st)
