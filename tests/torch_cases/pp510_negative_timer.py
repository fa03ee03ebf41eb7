# YOLO's profile(): a helper that synchronizes in order to read its clock (`time_synchronized()`), called
# around the forward and the backward of each timed run (hold-out 8: both findings read wrong)
import time

import torch


def time_synchronized():
    if torch.cuda.is_available():
        torch.cuda.synchronize()
    return time.time()


def profile(x, ops, n=100, device=None):
    device = device or torch.device("cuda:0")
    x = x.to(device)
    x.requires_grad = True
    for m in ops:
        m = m.to(device)
        dtf, dtb = 0.0, 0.0
        for _ in range(n):
            t0 = time_synchronized()
            y = m(x)
            t1 = time_synchronized()
            y.sum().backward()
            t2 = time_synchronized()
            dtf += (t1 - t0) * 1000 / n
            dtb += (t2 - t1) * 1000 / n
        print(f"{dtf:10.4g}{dtb:10.4g}")
