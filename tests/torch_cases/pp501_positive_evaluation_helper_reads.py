"""PP501 (torch-fix127): an evaluation loop calls a method of its class that runs the model and reads the loss
with `.item()` on every batch (MMA's `predict_then_update_loss_acc_meter`, called for the clean and the
adversarial batch, hold-out 43): the read waits for the GPU each batch as one in the loop's body would."""

import torch

device = torch.device("cuda")


class Evaluator:
    def __init__(self, model, loss_fn, loader):
        self.model = model.to(device)
        self.loss_fn = loss_fn
        self.loader = loader

    def predict_then_update(self, meter, data, target):
        output = self.model(data)
        loss = self.loss_fn(output, target).item()  # expect: PP501
        meter.update(loss, len(data))
        return loss

    def evaluate(self, meter):
        self.model.eval()
        with torch.no_grad():
            for data, target in self.loader:
                data, target = data.to(device), target.to(device)
                self.predict_then_update(meter, data, target)
