"""A course's regression script: the whole data set made on the host once, and copied again every step."""

import numpy as np
import torch
import torch.nn.init as init
from torch import nn, optim

num_data, num_epoch = 1000, 5000
x = init.uniform_(torch.FloatTensor(num_data, 1), -15, 15)
y_noise = 8 * (x**2) + 7 * x + 3 + init.normal_(torch.FloatTensor(num_data, 1), std=1)

model = nn.Sequential(nn.Linear(1, 6), nn.ReLU(), nn.Linear(6, 1)).cuda()
loss_func = nn.L1Loss()
optimizer = optim.SGD(model.parameters(), lr=0.0005)
label = y_noise.cuda()
for _ in range(num_epoch):
    optimizer.zero_grad()
    output = model(x.cuda())  # expect: PP506
    loss = loss_func(output, label)
    loss.backward()
    optimizer.step()


def spiral(points, labels, steps):
    inputs = np.asarray(points)
    inputs = torch.from_numpy(inputs).type_as(torch.FloatTensor())
    targets = torch.from_numpy(labels).cuda()
    net = nn.Linear(2, 3).cuda()
    opt = optim.Adam(net.parameters())
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(net(inputs.cuda()), targets)  # expect: PP506
        loss.backward()
        opt.step()
