"""An engine that never names torch and returns its loss detached: nothing to report."""

from ..engine import Engine


class ImageSoftmaxEngine(Engine):
    def __init__(self, model, optimizer, criterion, use_gpu=True):
        super().__init__(model, optimizer, use_gpu)
        self.criterion = criterion

    def forward_backward(self, data):
        imgs, pids = data
        if self.use_gpu:
            imgs = imgs.cuda()
            pids = pids.cuda()
        outputs = self.model(imgs)
        loss = self.criterion(outputs, pids)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {"loss": loss.detach()}
