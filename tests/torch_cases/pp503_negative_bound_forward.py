import torch


class Processor:
    """The same pass under no_grad, and a forward bound in a training pass: nothing to report."""

    def __init__(self, net, dataloader, optimizer):
        self.net = net.cuda()
        self.dataloader = dataloader
        self.optimizer = optimizer

    @torch.no_grad()
    def test_epoch(self):
        error = 0.0
        for batch in range(self.dataloader.testbatchnums):
            inputs = tuple(torch.Tensor(i).cuda() for i in self.dataloader.get_test_batch(batch))
            forward = self.net.forward
            outputs = forward(inputs[:-1], iftest=True)
            error += float(((outputs - inputs[-1]) ** 2).mean())
        return error / self.dataloader.testbatchnums

    def train_epoch(self):
        for batch in range(self.dataloader.trainbatchnums):
            inputs = tuple(torch.Tensor(i).cuda() for i in self.dataloader.get_train_batch(batch))
            forward = self.net.forward
            loss = ((forward(inputs[:-1]) - inputs[-1]) ** 2).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
