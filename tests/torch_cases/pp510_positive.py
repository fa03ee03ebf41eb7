import torch


def free_memory():
    torch.cuda.empty_cache()


def train(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()
        torch.cuda.synchronize()  # expect: PP510 high
        free_memory()  # expect: PP510


def predict(model, loader):
    outputs = []
    with torch.no_grad():
        for x in loader:
            outputs.append(model(x.cuda()))
            torch.cuda.empty_cache()  # expect: PP510
    return outputs


def predict_images(model, images):
    outputs = []
    with torch.no_grad():
        for image in images:
            outputs.append(model(image.cuda()))
            torch.cuda.empty_cache()  # expect: PP510 low
    return outputs


class Predictor:
    def __init__(self, model):
        self.model = model

    def run(self, batches):
        with torch.no_grad():
            for batch in batches:
                yield self.model(batch.cuda())
                torch.cuda.synchronize()  # expect: PP510
