"""PP501 in evaluation loops that copy predictions to the host only to count matches on every batch."""

import torch
import torch.nn.functional as F

device = torch.device("cuda")


def test(model, test_loader):
    # both sides copied to compare them (an incremental learner's test loop)
    model.eval()
    correct, total = 0, 0
    for images, labels in test_loader:
        images, labels = images.to(device), labels.to(device)
        with torch.no_grad():
            outputs = model(images)
        predicts = torch.max(outputs, dim=1)[1]
        correct += (predicts.cpu() == labels.cpu()).sum()  # expect: PP501
        total += len(labels)
    return 100 * correct / total


def evaluate(classifier, test_loader, n_test):
    # the prediction moved to a CPU device first, then its errors counted against the host labels
    classifier.eval()
    n_err = 0
    with torch.no_grad():
        for x, y in test_loader:
            prob = F.softmax(classifier(x.to(device)), dim=1)
            pred = torch.max(prob, dim=1)[1]
            pred = pred.to(torch.device("cpu"))
            n_err += (pred != y).sum().item()  # expect: PP501
    return n_err / n_test


def validate(net, loader):
    # the comparison on the device, its result copied to be summed on the host
    correct = 0
    with torch.no_grad():
        for data, target in loader:
            data, target = data.cuda(), target.cuda()
            pred = net(data).argmax(1)
            correct += pred.eq(target).cpu().sum()  # expect: PP501
    return correct


def train(model, train_loader, test_loader, optimizer, epochs):
    # an evaluation under no_grad between training epochs, beside the loop that steps
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            loss = F.cross_entropy(model(x.to(device)), y.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if epoch % 5 == 0:
            model.eval()
            test_loss = 0
            with torch.no_grad():
                for x, y in test_loader:
                    test_loss += F.cross_entropy(model(x.to(device)), y.to(device)).item()  # expect: PP501
            print(epoch, test_loss)


class ContrastiveTrainer:
    # the validation loop runs the model through a method it hands the model to
    def __init__(self, criterion, device):
        self.criterion = criterion
        self.device = device

    def _step(self, model, xis, xjs):
        zis = model(xis)
        zjs = model(xjs)
        return self.criterion(zis, zjs)

    def _validate(self, model, valid_loader):
        with torch.no_grad():
            model.eval()
            valid_loss, counter = 0.0, 0
            for xis, xjs in valid_loader:
                xis, xjs = xis.to(self.device), xjs.to(self.device)
                loss = self._step(model, xis, xjs)
                valid_loss += loss.item()  # expect: PP501
                counter += 1
        return valid_loss / counter
