import torch
from common import build
from scoring.accuracy import top1_error

model, test_loader, device = build()
with torch.no_grad():
    print(top1_error(model, test_loader, device))
