"""A Hugging Face Accelerate training script (torch-conv-kan's `train_model`, hold-out 38): the model, the
optimizer and the loaders go through `accelerator.prepare(...)`, which puts every batch on the accelerator's
device, and the loop backpropagates with `accelerator.backward(loss)`. Nothing in the module moves a tensor
itself, yet the step runs on the GPU: the logged `.item()` reads wait for it every step (torch-fix118)."""

import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader


def train_model(model, dataset_train, loss_func, cfg):
    accelerator = Accelerator(gradient_accumulation_steps=cfg.accum, mixed_precision="fp16")
    train_dataloader = DataLoader(
        dataset_train, batch_size=cfg.batch_size, shuffle=True, num_workers=4, pin_memory=True
    )
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
    global_step = 0
    for _epoch in range(cfg.epochs):
        model.train()
        for images, labels in train_dataloader:
            with accelerator.accumulate(model):
                output = model(images)
                loss = loss_func(output, labels)
                accelerator.backward(loss)
                optimizer.step()
                optimizer.zero_grad()
            global_step += 1
            logs = {"loss": loss.detach().item()}  # expect: PP501
            accelerator.log(logs, step=global_step)
    return model
