# a training loop that steps an optimizer and times each step with a stopwatch's toc() for the log still
# pays the synchronize on every step
import torch
from pycls.core.timer import Timer

model = torch.load("regnet.pt").cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = torch.utils.data.DataLoader(torch.load("train.pt"), batch_size=256, num_workers=8, pin_memory=True)


def train_epoch(epoch):
    timer = Timer()
    for inputs, labels in loader:
        timer.tic()
        inputs, labels = inputs.cuda(non_blocking=True), labels.cuda(non_blocking=True)
        loss = torch.nn.functional.cross_entropy(model(inputs), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        torch.cuda.synchronize()  # expect: PP510 high
        timer.toc()
    print(epoch, timer.average_time)
