"""Helpers of a multi-view stereo trainer: a decorator that runs the decorated step under no_grad, and one
that only times it."""

import time

import torch


def make_nograd_func(func):
    def wrapper(*f_args, **f_kwargs):
        with torch.no_grad():
            ret = func(*f_args, **f_kwargs)
        return ret

    return wrapper


def timed(func):
    def wrapper(*f_args, **f_kwargs):
        start = time.time()
        ret = func(*f_args, **f_kwargs)
        print("took", time.time() - start)
        return ret

    return wrapper


def tocuda(batch):
    return {k: v.cuda() if torch.is_tensor(v) else v for k, v in batch.items()}
