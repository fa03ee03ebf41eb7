# torch-fix17: a training loop that synchronizes on every step to time its batches for the log (CMC's
# train_moco), and one whose synchronize sits under `if torch.cuda.is_available():`, true on every step
import time

import torch

device = torch.device("cuda")
model = torch.load("resnet.pt").to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_loader = torch.utils.data.DataLoader(
    torch.load("train.pt"), batch_size=256, num_workers=8, pin_memory=True
)


def train_moco(epoch, batch_time, loss_meter):
    end = time.time()
    for idx, (inputs, target) in enumerate(train_loader):
        inputs, target = inputs.cuda(non_blocking=True), target.cuda(non_blocking=True)
        loss = torch.nn.functional.cross_entropy(model(inputs), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_meter.update(loss.detach())
        torch.cuda.synchronize()  # expect: PP510 high
        batch_time.update(time.time() - end)
        end = time.time()
        if idx % 100 == 0:
            print(epoch, idx, batch_time.avg)


def train(epoch):
    for data, targets in train_loader:
        data, targets = data.to(device, non_blocking=True), targets.to(device, non_blocking=True)
        loss = torch.nn.functional.cross_entropy(model(data), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if torch.cuda.is_available():
            torch.cuda.synchronize()  # expect: PP510 high
