"""A molecule-property script: the loader of PyG graphs is made here, the loop that copies its batches is
train_eval.py's."""

import torch
from datasets import MoleculeDataset
from torch_geometric.data import DataLoader
from train_eval import train


def main(args, model):
    device = torch.device("cuda")
    dataset = MoleculeDataset("dataset/" + args.dataset, dataset=args.dataset)
    train_loader = DataLoader(  # expect: PP505
        dataset, batch_size=args.batch_size, shuffle=True, num_workers=args.num_workers
    )
    model = model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    for _ in range(args.epochs):
        train(model, optimizer, train_loader, device)
