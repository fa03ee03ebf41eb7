"""torch-fix41 (tuned on hold-out 15): a loader with workers handed to `trainer.fit`, a validation loader
handed to it, a train-named maker that sets workers, and benchmarking-gnns' loader over `range(n)` that
only batches edge indices (nothing to load)."""

import pytorch_lightning as pl
from torch.utils.data import DataLoader, random_split
from torchvision import transforms
from torchvision.datasets import MNIST


def cli_main(model, batch_size):
    dataset = MNIST("", train=True, download=True, transform=transforms.ToTensor())
    mnist_train, mnist_val = random_split(dataset, [55000, 5000])
    train_loader = DataLoader(mnist_train, batch_size=batch_size, num_workers=4)
    val_loader = DataLoader(mnist_val, batch_size=batch_size)
    trainer = pl.Trainer(max_epochs=5)
    trainer.fit(model, train_loader, val_loader)


def get_train_loader(dataset, batch_size):
    return DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=8)


def train_epoch_sparse(model, optimizer, device, graph, train_edges, batch_size):
    model.train()
    train_edges = train_edges.to(device)
    total_loss = 0
    for perm in DataLoader(range(train_edges.size(0)), batch_size, shuffle=True):
        optimizer.zero_grad()
        h = model(graph.to(device))
        edges = train_edges[perm]
        loss = model.loss(h[edges[:, 0]], h[edges[:, 1]])
        loss.backward()
        optimizer.step()
        total_loss += loss.detach()
    return total_loss
