"""Times the baseline against the detector: the baseline's forward does not turn autograd off, so the loop
over it records a graph even though the detector imported beside it guards itself."""

import argparse
import time

import torch
from baselines.center_net import CenterNetLite
from models.detector import build_model


def evaluate(model, device, images):
    total = 0.0
    for i in range(len(images)):
        x = images[i].unsqueeze(0).to(device)
        t0 = time.time()
        heatmap, size = model(x)  # expect: PP503
        total += time.time() - t0
        print(i, heatmap.shape, size.mean())
    return total / len(images)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-classes", type=int, default=20)
    args = parser.parse_args()
    device = torch.device("cuda")
    images = torch.load("coco_val_subset.pt")
    baseline = CenterNetLite(args.num_classes).to(device).eval()
    print("baseline", evaluate(baseline, device, images))
    detector = build_model(args.num_classes).to(device).eval()
    print("detector params", sum(p.numel() for p in detector.parameters()))
