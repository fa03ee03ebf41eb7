import torch


class Learner:
    def __init__(self, network, loader, device):
        self._network = network.to(device)
        self._loader = loader
        self._device = device
        self._metrics = {}
        self._optimizer = torch.optim.SGD(self._network.parameters(), lr=0.1)

    def train_task(self):
        for inputs, targets in self._loader:
            inputs, targets = inputs.to(self._device), targets.to(self._device)
            self._optimizer.zero_grad()
            loss = self._forward_loss(inputs, targets)
            loss.backward()
            self._optimizer.step()
            self._record()

    def _forward_loss(self, inputs, targets):
        outputs = self._network(inputs)
        return self._compute_loss(outputs, targets)

    def _compute_loss(self, outputs, targets):
        return torch.nn.functional.cross_entropy(outputs, targets)

    def _record(self):
        self._update_metric()

    def _update_metric(self):
        predictions = self._network.last.argmax(1)
        self._metrics["seen"] = predictions.cpu()  # expect: PP501
