"""A NeRF trainer subclass computes its losses and runs the backward in `calc_losses(data, is_train=True)`,
reading each term with `.item()` for the log dict; the base trainer's loop in another module calls
`train_step` and steps the optimizer (hold-out 17's pixelNeRF `PixelNeRFTrainer.calc_losses`). At medium:
the optimizer step and the loop are out of sight. Its `loss` is its own (a module of that name is
imported too). The number of views drawn with `torch.randint(...)` on the
host and read is no wait."""

import torch
import trainlib
from model import loss


class PixelNeRFTrainer(trainlib.Trainer):
    def __init__(self, net, renderer, args):
        super().__init__(net, args)
        self.renderer = renderer
        self.rgb_crit = torch.nn.MSELoss()
        self.device = torch.device("cuda:0")
        self.nviews = [1, 2, 3]
        self.lambda_coarse = loss.COARSE_WEIGHT

    def calc_losses(self, data, is_train=True, global_step=0):
        views = self.nviews[torch.randint(0, len(self.nviews), ()).item()]
        rays = data["rays"][:, :views].to(device=self.device)
        rgb_gt = data["rgb"].to(device=self.device)
        render = self.renderer(rays)
        loss_dict = {}
        rgb_loss = self.rgb_crit(render.rgb, rgb_gt)
        loss_dict["rc"] = rgb_loss.item()  # expect: PP501 medium
        loss = rgb_loss * self.lambda_coarse
        if is_train:
            loss.backward()
        loss_dict["t"] = loss.item()
        return loss_dict

    def forward_backward(self, data):
        render = self.renderer(data["rays"].to(device=self.device))
        loss = self.rgb_crit(render.rgb, data["rgb"].to(device=self.device))
        loss.backward()
        return {"t": loss.item()}  # expect: PP501 medium

    def train_step(self, data, global_step):
        return self.calc_losses(data, is_train=True, global_step=global_step)

    def eval_step(self, data, global_step):
        self.renderer.eval()
        losses = self.calc_losses(data, is_train=False, global_step=global_step)
        self.renderer.train()
        return losses
