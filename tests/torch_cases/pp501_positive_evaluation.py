"""PP501 at medium: `.item()` on every batch of an evaluation loop that runs a model on the GPU."""

import torch
import torch.nn.functional as F

device = torch.device("cuda")


def validate(model, val_loader, criterion, losses, top1):
    # a meter per batch, under no_grad (timm- and DeiT-style validation)
    model.eval()
    with torch.no_grad():
        for images, target in val_loader:
            images, target = images.to(device), target.to(device)
            output = model(images)
            loss = criterion(output, target)
            acc1 = (output.argmax(1) == target).float().mean() * 100
            losses.update(loss.item(), images.size(0))  # expect: PP501
            top1.update(acc1.item(), images.size(0))


def test_img(net, data_loader):
    # a def named for evaluation, no no_grad: running totals
    test_loss, correct = 0, 0
    for data, target in data_loader:
        data, target = data.cuda(), target.cuda()
        log_probs = net(data)  # expect: PP503
        test_loss += F.cross_entropy(log_probs, target, reduction="sum").item()  # expect: PP501
        correct += log_probs.argmax(1).eq(target).sum().item()
    return correct / len(data_loader.dataset), test_loss


class Evaluator:
    def __init__(self, model, data, params):
        self.model = model
        self.data = data
        self.params = params

    def evaluate_mlm(self, scores, data_set):
        # the batch goes to the GPU through a project helper
        xe_loss, n_words = 0, 0
        for batch in self.get_iterator(data_set):
            x, y = to_cuda(*batch)
            word_scores, loss = self.model("predict", x=x, y=y)  # expect: PP503
            n_words += len(y)
            xe_loss += loss.item() * len(y)  # expect: PP501
        scores[f"{data_set}_mlm_ppl"] = xe_loss / n_words

    def get_iterator(self, data_set):
        return iter(self.data[data_set])


def to_cuda(*args):
    return [None if x is None else x.cuda() for x in args]
