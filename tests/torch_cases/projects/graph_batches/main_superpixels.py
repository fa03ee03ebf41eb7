"""A graph-classification script in benchmarking-gnns' shape: the loaders batch DGL graphs with the data
set's collate, and the loops that copy the batches are in train/."""

import torch
from data.superpixels import SuperPixDataset
from torch.utils.data import DataLoader
from train.train_superpixels import evaluate_network, train_epoch


def train_val_pipeline(model, dataset_name, params):
    device = torch.device("cuda")
    dataset = SuperPixDataset(dataset_name)
    trainset, valset = dataset.train, dataset.val
    model = model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=params["init_lr"])
    train_loader = DataLoader(
        trainset, batch_size=params["batch_size"], shuffle=True, collate_fn=dataset.collate
    )
    val_loader = DataLoader(
        valset, batch_size=params["batch_size"], shuffle=False, collate_fn=dataset.collate
    )
    for epoch in range(params["epochs"]):
        train_epoch(model, optimizer, device, train_loader, epoch)
        evaluate_network(model, device, val_loader, epoch)
