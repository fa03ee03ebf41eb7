"""A loss module summing its configured terms, reading each on the host for its log (EDSR's and RCAN's
`Loss.forward`, hold-outs 12 and 13): the trainer calls it on every step, so every term waits for the GPU."""

import torch
import torch.nn as nn


class Loss(nn.modules.loss._Loss):
    def __init__(self, args, terms):
        super().__init__()
        self.loss = []
        for weight, name in terms:
            function = nn.L1Loss() if name == "L1" else None
            self.loss.append({"type": name, "weight": weight, "function": function})
        self.log = torch.Tensor()
        device = torch.device("cpu" if args.cpu else "cuda")
        self.loss_module = nn.ModuleList([term["function"] for term in self.loss if term["function"]])
        self.loss_module.to(device)

    def forward(self, sr, hr):
        losses = []
        for i, term in enumerate(self.loss):
            if term["function"] is not None:
                loss = term["function"](sr, hr)
                effective_loss = term["weight"] * loss
                losses.append(effective_loss)
                self.log[-1, i] += effective_loss.item()  # expect: PP501 medium
            elif term["type"] == "DIS":
                self.log[-1, i] += self.loss[i - 1]["function"].loss

        loss_sum = sum(losses)
        if len(self.loss) > 1:
            self.log[-1, -1] += loss_sum.item()
        return loss_sum
