import torch
from torch import nn


class PairModel(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.net = nn.Linear(width, width)
        self.critic = nn.Linear(width, 1)
        self.gen_opt = torch.optim.Adam(self.net.parameters())
        self.dis_opt = torch.optim.Adam(self.critic.parameters())

    def process(self, inputs, targets):
        outputs = self.net(inputs)
        gen_loss = nn.functional.l1_loss(outputs, targets)
        dis_loss = self.critic(outputs.detach()).mean()
        logs = [("gen", gen_loss.item()), ("dis", dis_loss.item())]  # expect: PP501
        return outputs, gen_loss, dis_loss, logs

    def backward(self, gen_loss, dis_loss):
        self.dis_opt.zero_grad()
        dis_loss.backward()
        self.dis_opt.step()
        self.gen_opt.zero_grad()
        gen_loss.backward()
        self.gen_opt.step()
