"""The same script: what `net.fit` returns are Python numbers, and adding them into NumPy arrays reads
nothing from the device."""

import torch
import torch.utils.data
from src.model import *  # noqa: F403
from torchvision import datasets, transforms

use_cuda = torch.cuda.is_available()
nb_epochs = 60
trainset = datasets.MNIST(root="../data", train=True, download=True, transform=transforms.ToTensor())
trainloader = torch.utils.data.DataLoader(
    trainset, batch_size=128, shuffle=True, pin_memory=True, num_workers=3
)
net = MC_drop_net(torch.nn.Linear(784, 10), lr=1e-3, cuda=use_cuda)  # noqa: F405

pred_cost_train = np.zeros(nb_epochs)  # noqa: F405 (numpy comes with the star import)
err_train = np.zeros(nb_epochs)  # noqa: F405
for i in range(nb_epochs):
    nb_samples = 0
    for x, y in trainloader:
        cost_pred, err = net.fit(x.view(-1, 784), y)
        err_train[i] += err
        pred_cost_train[i] += cost_pred
        nb_samples += len(x)
    err_train[i] /= nb_samples
    print(f"it {i}/{nb_epochs}, Jtr_pred = {pred_cost_train[i]:f}, err = {err_train[i]:f}")
