"""A loop that logs every step's losses through a def of its own module (consistency models'
cm/train_util.py, hold-out 15)."""

import torch


class TrainLoop:
    def __init__(self, model, diffusion, opt, microbatch):
        self.model = model.to("cuda")
        self.diffusion = diffusion
        self.opt = opt
        self.microbatch = microbatch

    def run_loop(self, data):
        for batch in data:
            self.opt.zero_grad()
            micro = batch.to("cuda")
            t = torch.randint(0, 1000, (micro.shape[0],), device="cuda")
            losses = self.diffusion.training_losses(self.model, micro, t)
            loss = losses["loss"].mean()
            log_loss_dict(self.diffusion, t, {k: v for k, v in losses.items()})  # expect: PP501
            loss.backward()
            self.opt.step()


def log_loss_dict(diffusion, ts, losses):
    for key, values in losses.items():
        print(key, values.mean().item())
        for sub_t, sub_loss in zip(ts.cpu().numpy(), values.detach().cpu().numpy(), strict=True):
            quartile = int(4 * sub_t / diffusion.num_timesteps)
            print(f"{key}_q{quartile}", sub_loss)
