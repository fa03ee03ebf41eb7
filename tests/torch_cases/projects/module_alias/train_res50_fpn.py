"""The script hands its loader to a def it reaches through an imported module's alias."""

import torch
from train_utils import train_eval_utils as utils


def main(model, train_data_set, epochs):
    device = torch.device("cuda")
    model.to(device)
    train_data_loader = torch.utils.data.DataLoader(  # expect: PP505
        train_data_set, batch_size=8, shuffle=True, num_workers=4, collate_fn=train_data_set.collate_fn
    )
    optimizer = torch.optim.SGD(model.parameters(), lr=0.005)
    for epoch in range(epochs):
        utils.train_one_epoch(model, optimizer, train_data_loader, device, epoch)
