"""A training loop that shows its batches only when asked (GG-CNN's and GR-ConvNet's `if vis:` view ending
in `cv2.waitKey(2)`): still a workload whose copies are reported; a viewer waiting on every batch is not."""

import cv2
import torch
from torch.utils.data import DataLoader


def train(net, optimizer, train_data, device, vis=False):
    net.train()
    for x, y in train_data:
        xc, yc = x.to(device), y.to(device)
        loss = net.compute_loss(xc, yc)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if vis:
            cv2.imshow("batch", x[0].numpy().squeeze())
            cv2.waitKey(2)


def view(net, data, device):
    for x, _ in data:
        cv2.imshow("prediction", net(x.to(device)).detach().cpu().numpy().squeeze())  # expect: PP503
        cv2.waitKey(2)


def main(net, optimizer, train_set, view_set, epochs):
    device = torch.device("cuda")
    train_data = DataLoader(train_set, batch_size=8, shuffle=True, num_workers=4)  # expect: PP505 medium
    for _ in range(epochs):
        train(net, optimizer, train_data, device, vis=True)
    view(net, DataLoader(view_set, batch_size=1, num_workers=2), device)
