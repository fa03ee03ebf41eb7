"""A correlation layer's module times its two implementations under `if __name__ == "__main__":` on fresh
random inputs each pass: a self-test of the module's own classes in a module that reads no data, where the
random host tensors are the point of the benchmark. The loop times the backward too, which makes it a step
loop; as a self-test (`self_test_loop`, shared with PP501) it is reported at `low`, not `high`."""

import time

import torch
import torch.nn as nn


class Correlation(nn.Module):
    def __init__(self, max_displacement=4):
        super().__init__()
        self.max_displacement = max_displacement

    def forward(self, x1, x2):
        return (x1 * x2).sum(dim=1, keepdim=True)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    corr = Correlation(max_displacement=4).to(device)
    total = 0.0
    for _ in range(50):
        x1 = torch.randn(4, 128, 64, 64, requires_grad=True).to(device)  # expect: PP506 low
        x2 = torch.randn(4, 128, 64, 64).to(device)  # expect: PP506 low
        start = time.time()
        y = corr(x1, x2)
        y.sum().backward()
        total += time.time() - start
    print(total / 50)
