"""Runs the detector over a data set: its forward turns autograd off itself."""

import time

import torch
from models.detector import build_model


def test(net, device, dataset, transform):
    for index in range(len(dataset)):
        image = dataset.pull_image(index)
        x = transform(image).unsqueeze(0).to(device)
        t0 = time.time()
        bboxes, scores, labels = net(x)
        print("detection time", time.time() - t0, bboxes.shape, scores.max(), labels[0])


if __name__ == "__main__":
    device = torch.device("cuda")
    net = build_model(20).to(device).eval()
    test(net, device, torch.load("voc.pt"), torch.load("transform.pt"))
