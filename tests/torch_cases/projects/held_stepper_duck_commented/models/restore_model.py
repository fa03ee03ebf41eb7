from collections import OrderedDict

import torch
import torch.nn as nn


class RestoreModel:
    def initialize(self, opt):
        self.net = nn.Conv2d(3, 3, 3, padding=1).cuda()
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=opt.lr)
        self.loss_pixel = None

    def set_input(self, data):
        self.input = data["input"].cuda()
        self.target = data["target"].cuda()

    # (review 26 item 17: a comment at the class's indentation inside the method; fmt: off keeps it)
    # fmt: off
    def optimize_parameters(self):
        self.optimizer.zero_grad()
        output = self.net(self.input)
        self.loss_pixel = nn.functional.l1_loss(output, self.target)
    # self.loss_pixel = self.loss_pixel + 0.1 * nn.functional.mse_loss(output, self.target)
        self.loss_pixel.backward()
        self.optimizer.step()
    # fmt: on

    def get_current_errors(self):
        errors = OrderedDict()
        errors["pixel"] = self.loss_pixel.item()  # expect: PP501
        return errors
