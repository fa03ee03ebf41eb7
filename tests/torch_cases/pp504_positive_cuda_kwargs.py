# MNIST-style script whose loader settings come from `kwargs = {...} if use_cuda else {}` (hold-out 21's
# DeepSpeaker): the non-empty dict is the GPU run's settings, so its explicit `num_workers: 0` decodes every
# image in the training process (PP504), and its `pin_memory: True` pins the batches (no PP505); the twin
# below asks for workers and stays silent
import torch
import torch.nn.functional as F
from torchvision import datasets, transforms

use_cuda = torch.cuda.is_available()
device = torch.device("cuda" if use_cuda else "cpu")
kwargs = {"num_workers": 0, "pin_memory": True} if use_cuda else {}
test_kwargs = {} if not use_cuda else {"num_workers": 4, "pin_memory": True}
transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
train_loader = torch.utils.data.DataLoader(  # expect: PP504 high
    datasets.MNIST("../data", train=True, download=True, transform=transform),
    batch_size=64,
    shuffle=True,
    **kwargs,
)
other_loader = torch.utils.data.DataLoader(
    datasets.MNIST("../data", train=True, transform=transform), batch_size=64, shuffle=True, **test_kwargs
)


def train(model, loader, optimizer, epochs=10):
    model.train()
    for _epoch in range(epochs):
        for data, target in loader:
            data, target = data.to(device, non_blocking=True), target.to(device, non_blocking=True)
            optimizer.zero_grad()
            loss = F.nll_loss(model(data), target)
            loss.backward()
            optimizer.step()


def run(model, optimizer):
    train(model, train_loader, optimizer)
    train(model, other_loader, optimizer)
