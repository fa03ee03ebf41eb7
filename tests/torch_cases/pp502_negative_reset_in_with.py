"""PP502: a total bound afresh inside a `with` block earlier in the same step, then scaled and backpropagated."""

from contextlib import nullcontext

import torch


def get_loss_scale(batch, reference_batch_size):
    return batch["image"].shape[0] / reference_batch_size


def backward(total_loss, scaler):
    scaler.scale(total_loss).backward()


def train_accumulated(model, batches, optimizer, scaler, reference_batch_size, accum_freq):
    optimizer.zero_grad()
    for j in range(accum_freq):
        ddp_context = model.no_sync() if j < accum_freq - 1 else nullcontext()
        with ddp_context:
            with torch.autocast("cuda"):
                losses = model(**batches[j])
                total_loss = sum(v for k, v in losses.items() if k.endswith("_loss"))
            loss_scale = get_loss_scale(batches[j], reference_batch_size)
            if loss_scale != 1.0:
                total_loss = total_loss * loss_scale
            backward(total_loss, scaler)
    scaler.step(optimizer)
