import torch
from helpers import to_float, to_numpy

model = torch.nn.Conv2d(3, 1, 3).cuda()
optimizer = torch.optim.Adam(model.parameters())


def train_sample(sample, summary=False):
    model.train()
    optimizer.zero_grad()
    images, depth = sample["images"].cuda(), sample["depth"].cuda()
    estimate = model(images)
    loss = torch.nn.functional.smooth_l1_loss(estimate, depth)
    loss.backward()
    optimizer.step()
    scalars = {"loss": loss}
    pictures = {"estimate": estimate, "depth": depth}
    return to_float(loss), scalars, to_numpy(pictures)  # expect: PP501


def train(loader, epochs):
    for epoch in range(epochs):
        for step, sample in enumerate(loader):
            loss, scalars, pictures = train_sample(sample, summary=step % 100 == 0)
            print(epoch, step, loss)
