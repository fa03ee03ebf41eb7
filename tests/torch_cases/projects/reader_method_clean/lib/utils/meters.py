"""Meters that keep the step's tensors on the device, or read them only when asked to (the clean
counterparts of reader_method's loggers)."""


class AverageMeter:
    def __init__(self):
        self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n


class DeviceLogger:
    def __init__(self, verbose=False):
        self.totals = {}
        self.verbose = verbose

    def update(self, **kwargs):
        for k, v in kwargs.items():
            self.totals[k] = self.totals.get(k, 0) + v.detach()
            if self.verbose:
                print(k, v.item())

    def summary(self):
        return {k: v.item() for k, v in self.totals.items()}


class Result:
    def evaluate(self, output, target):
        self.mse = float((output - target).pow(2).mean())
