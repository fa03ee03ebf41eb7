import torch
import torch.nn as nn
from torch.utils.data import DataLoader

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


def train_model(model, dataset_cls, num_epochs=100, lr=1e-3):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    model.to(device)
    train_dataloader = DataLoader(
        dataset_cls(split="train"), batch_size=20, shuffle=True, num_workers=4, pin_memory=True
    )
    val_dataloader = DataLoader(dataset_cls(split="val"), batch_size=20, num_workers=4, pin_memory=True)
    trainval_loaders = {"train": train_dataloader, "val": val_dataloader}
    for _epoch in range(num_epochs):
        for phase in ["train", "val"]:
            for inputs, labels in trainval_loaders[phase]:
                inputs = inputs.to(device, non_blocking=True)
                labels = labels.to(device, non_blocking=True)
                optimizer.zero_grad()
                loss = criterion(model(inputs), labels)  # expect: PP503
                if phase == "train":
                    loss.backward()
                    optimizer.step()


def show_sizes(dataset_cls):
    train_dataloader = DataLoader(dataset_cls(split="train"), batch_size=20, num_workers=4)
    loaders = {"train": train_dataloader}
    for phase in ["train"]:
        for inputs, labels in loaders[phase]:
            print(phase, inputs.shape, labels.shape)
