"""The host copy is made only now and then, or after the loss: the loss stays on the GPU and `.item()` waits."""

import torch.nn.functional as F


class Trainer:
    def __init__(self, net, optimizer, device, args):
        self.net = net.to(device)
        self.optimizer = optimizer
        self.device = device
        self.args = args

    def ctc(self, output, targets, lengths):
        return F.ctc_loss(output.log_softmax(2), targets, lengths, lengths)

    def train_epoch(self, loader):
        total = 0.0
        for i, (audio, targets, lengths) in enumerate(loader):
            self.optimizer.zero_grad()
            audio = audio.to(self.device)
            output, _ = self.net(audio)
            if i % self.args.dump_every == 0:
                output = output.to("cpu")
            loss = self.ctc(output, targets.to(self.device), lengths)
            total += loss.item()  # expect: PP501
            loss.backward()
            self.optimizer.step()
        return total
