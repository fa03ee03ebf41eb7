"""PP510 under tests that are true on every step of a GPU run, and in loops over loaders."""

import time

import torch
from options import TrainOptions
from utils import Timer, get_loaders

device_type = "cuda" if torch.cuda.is_available() else "cpu"


def train_tokens(model, optimizer, train_loader, max_steps):
    # build-nanogpt: the wait is for the tokens-per-second print
    for step in range(max_steps):
        t0 = time.time()
        x, y = train_loader.next_batch()
        x, y = x.to(device_type), y.to(device_type)
        logits, loss = model(x, y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if device_type == "cuda":
            torch.cuda.synchronize()  # expect: PP510 high
        print(f"step {step} dt {time.time() - t0:.3f}")


def train_translation(opt, model, dataset):
    # CUT and CycleGAN: the model class trains itself in `optimize_parameters`
    for _epoch in range(opt.n_epochs):
        for data in dataset:
            if len(opt.gpu_ids) > 0:
                torch.cuda.synchronize()  # expect: PP510 high
            start = time.time()
            model.set_input(data)
            model.optimize_parameters()
            if len(opt.gpu_ids) > 0:
                torch.cuda.synchronize()  # expect: PP510 high
            print((time.time() - start) / opt.batch_size)


def train_unit(trainer, config):
    # UNIT and FUNIT: the trainer's update methods run the models of another module
    train_loader_a, train_loader_b = get_loaders(config)
    while True:
        for images_a, images_b in zip(train_loader_a, train_loader_b, strict=False):
            images_a, images_b = images_a.cuda().detach(), images_b.cuda().detach()
            with Timer("Elapsed time in update: %f"):
                trainer.dis_update(images_a, images_b, config)
                trainer.gen_update(images_a, images_b, config)
                torch.cuda.synchronize()  # expect: PP510 high


if __name__ == "__main__":
    train_translation(TrainOptions().parse(), None, None)
