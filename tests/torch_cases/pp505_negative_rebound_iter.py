"""A notebook that reads one batch of a loader for a picture with `dataiter = iter(vis_dataloader)`, then
rebinds `dataiter` to a test loader whose pairs it shows (the siamese-network notebook, hold-out 13): the
first loader's batches never reach the GPU, and the second loop is a viewer that draws every pair."""

import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn.functional as F
import torchvision
from torch import nn, optim
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def imshow(img, text=None):
    plt.axis("off")
    if text:
        plt.text(75, 8, text)
    plt.imshow(np.transpose(img.numpy(), (1, 2, 0)))
    plt.show()


tf = transforms.Compose([transforms.Resize((100, 100)), transforms.ToTensor()])
pairs = datasets.ImageFolder("data/faces/training", transform=tf)
vis_dataloader = DataLoader(pairs, shuffle=True, num_workers=8, batch_size=8)
dataiter = iter(vis_dataloader)
example_batch = next(dataiter)
imshow(torchvision.utils.make_grid(example_batch[0]))

net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 100 * 100, 5)).cuda()
optimizer = optim.Adam(net.parameters(), lr=0.0005)
train_dataloader = DataLoader(pairs, shuffle=True, num_workers=8, batch_size=64, pin_memory=True)
for _epoch in range(100):
    for img, _label in train_dataloader:
        img = img.cuda(non_blocking=True)
        optimizer.zero_grad()
        loss = net(img).pow(2).mean()
        loss.backward()
        optimizer.step()

test_set = datasets.ImageFolder("data/faces/testing", transform=tf)
test_dataloader = DataLoader(test_set, num_workers=6, batch_size=1, shuffle=True)
dataiter = iter(test_dataloader)
x0, _ = next(dataiter)
for _i in range(10):
    x1, label2 = next(dataiter)
    concatenated = torch.cat((x0, x1), 0)
    distance = F.pairwise_distance(net(x0.cuda()), net(x1.cuda()))
    imshow(torchvision.utils.make_grid(concatenated), f"Dissimilarity: {distance.item():.2f}")
