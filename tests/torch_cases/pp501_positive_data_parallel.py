"""A training loop over a DataLoader's batches that moves none of them itself but runs models wrapped in a
data-parallel wrapper (which scatters the batch to the GPUs), then reads every loss on the host for the
logger on every step (first-order-model's train.py; its run.py moves the models). Its loader pins no
memory for those GPU copies: PP505 (torch-fix37)."""

import torch
from sync_batchnorm import DataParallelWithCallback
from torch.utils.data import DataLoader


def train(generator_full, optimizer_generator, dataset, logger, device_ids, num_epochs):
    if torch.cuda.is_available():
        generator_full = DataParallelWithCallback(generator_full, device_ids=device_ids)
    dataloader = DataLoader(dataset, batch_size=8, shuffle=True, num_workers=6)  # expect: PP505 medium
    for _epoch in range(num_epochs):
        for x in dataloader:
            losses_g, generated = generator_full(x)
            loss_values = [val.mean() for val in losses_g.values()]
            loss = sum(loss_values)
            loss.backward()
            optimizer_generator.step()
            optimizer_generator.zero_grad()
            losses = {k: v.mean().detach().cpu().numpy() for k, v in losses_g.items()}  # expect: PP501
            logger.log_iter(losses=losses)
