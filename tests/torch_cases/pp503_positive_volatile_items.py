from torch.autograd import Variable


class Meter:
    def __init__(self):
        self.total, self.count = 0.0, 0

    def add(self, value, n):
        self.total += value * n
        self.count += n


def train(loader, model, loss_fn, optimizer, on_gpu):
    model.train()
    for images, labels in loader:
        if on_gpu:
            images, labels = images.cuda(), labels.cuda()
        loss = loss_fn(model(Variable(images)), Variable(labels))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def evaluate(loader, model, loss_fn, on_gpu):
    meter = Meter()
    model.eval()
    for images, labels in loader:
        if on_gpu:
            images, labels = images.cuda(), labels.cuda()
        images, labels = Variable(images, volatile=True), Variable(labels)
        scores = model(images)  # expect: PP503
        loss = loss_fn(scores, labels)
        meter.add(loss.data.item(), images.size(0))  # expect: PP501
    return meter.total / meter.count
