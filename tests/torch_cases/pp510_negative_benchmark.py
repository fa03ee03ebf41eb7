# torch-fix17 near misses: a benchmark loop that times forward and backward passes (no optimizer step: the
# synchronize makes the timing true), and a training loop that synchronizes only when it logs
import time

import torch

device = torch.device("cuda")
model = torch.load("resnet.pt").to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_loader = torch.utils.data.DataLoader(
    torch.load("train.pt"), batch_size=256, num_workers=8, pin_memory=True
)


def profile(x, n=100):
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        y = model(x)
        torch.cuda.synchronize()
        t1 = time.perf_counter()
        y.sum().backward()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t1, t1 - t0))
    return times


def train(epoch):
    for step, (data, targets) in enumerate(train_loader):
        data, targets = data.to(device, non_blocking=True), targets.to(device, non_blocking=True)
        loss = torch.nn.functional.cross_entropy(model(data), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 100 == 0:
            torch.cuda.synchronize()
            print(epoch, step, time.time())
