import torch


class Processor:
    """SR-LSTM's shape: the test pass binds the network's forward to a name and calls that name."""

    def __init__(self, net, dataloader):
        self.net = net.cuda()
        self.dataloader = dataloader

    def test_epoch(self):
        error = 0.0
        for batch in range(self.dataloader.testbatchnums):
            inputs = tuple(torch.Tensor(i).cuda() for i in self.dataloader.get_test_batch(batch))
            forward = self.net.forward
            outputs = forward(inputs[:-1], iftest=True)  # expect: PP503 medium
            error += float(((outputs - inputs[-1]) ** 2).mean())
        return error / self.dataloader.testbatchnums
