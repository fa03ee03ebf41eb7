"""Near miss of a phase loop that only builds models: this loop also runs the model on every pass (one
batch per pass of a stream), so a host tensor moved in it is copied per forward."""

import torch
import torch.nn as nn
from models import resnet32

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def stream(args, batches):
    model = resnet32(num_classes=args.num_classes)
    head = nn.Sequential(*list(model.children())[:-1])
    model.to(device).eval()
    outputs = []
    for x in batches:
        weight = torch.ones(args.num_classes).to(device)  # expect: PP506 high
        outputs.append(model(x.to(device)) * weight)
    return head, outputs
