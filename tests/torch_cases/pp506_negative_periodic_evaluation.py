"""(torch-fix53) A training loop that calls its evaluation every `eval_freq` steps (`if global_step %
args.eval_freq == 0:`): the evaluation's accumulator, made before its own loop over the evaluation loader
(`enumerate(tqdm(dataloader_eval.data))`, a loader's attribute), is made once per evaluation; a sample grid
drawn by a def called only under that test is `low` (once every N steps), not `high` as a def run on every
pass of a model's loop would be."""

import torch
from tqdm import tqdm


def online_eval(model, dataloader_eval, gpu):
    eval_measures = torch.zeros(10).cuda(device=gpu)
    for _, batch in enumerate(tqdm(dataloader_eval.data)):
        with torch.no_grad():
            image = batch["image"].cuda(gpu, non_blocking=True)
            depth = model(image)
        eval_measures[:9] += depth.mean()
        eval_measures[9] += 1
    return eval_measures


def sample_grid(generator):
    z = torch.randn(64, 128).cuda()  # expect: PP506 low
    return generator(z)


def train(model, generator, optimizer, dataloader, dataloader_eval, args, gpu):
    global_step = 0
    for _ in range(args.num_epochs):
        for batch in dataloader.data:
            optimizer.zero_grad()
            image = batch["image"].cuda(gpu, non_blocking=True)
            depth_gt = batch["depth"].cuda(gpu, non_blocking=True)
            loss = (model(image) - depth_gt).abs().mean()
            loss.backward()
            optimizer.step()
            global_step += 1
            if global_step % args.eval_freq == 0:
                model.eval()
                measures = online_eval(model, dataloader_eval, gpu)
                grid = sample_grid(generator)
                print(measures, grid.shape)
                model.train()
