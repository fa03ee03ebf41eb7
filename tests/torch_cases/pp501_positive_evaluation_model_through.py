"""Evaluation loops whose model runs one call removed (`_runs_model_through`, torch-fix90): a model's
`predict` method (DSAN's test, hold-out 23), a def of another module handed the model whose results the loop
binds (SWAG's `eval`: `loss, output, stats = criterion(model, input, target)`, hold-out 22), and a method of
the class that runs the model (an Informer-style `self._process_one_batch(...)`). Each batch's `.item()` into
a total waits for the GPU, as beside a plain `model(x)`."""

import torch
import torch.nn.functional as F
from losses import criterion


def test(model, dataloader):
    model.eval()
    test_loss = 0
    with torch.no_grad():
        for data, target in dataloader:
            data, target = data.cuda(), target.cuda()
            pred = model.predict(data)
            test_loss += F.nll_loss(F.log_softmax(pred, dim=1), target).item()  # expect: PP501 high
    return test_loss / len(dataloader)


def evaluate(loader, model):
    loss_sum = 0.0
    with torch.no_grad():
        for x, y in loader:
            x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
            loss, output, stats = criterion(model, x, y)
            loss_sum += loss.item() * x.size(0)  # expect: PP501 high
    return loss_sum / len(loader.dataset)


class Experiment:
    def __init__(self, model):
        self.model = model.cuda()

    def _process_one_batch(self, batch_x, batch_y):
        outputs = self.model(batch_x.float().cuda())
        return outputs, batch_y.float().cuda()

    def validate(self, vali_loader, loss_fn):
        total = 0.0
        with torch.no_grad():
            for batch_x, batch_y in vali_loader:
                pred, true = self._process_one_batch(batch_x, batch_y)
                total += loss_fn(pred, true).item()  # expect: PP501 high
        return total / len(vali_loader)
