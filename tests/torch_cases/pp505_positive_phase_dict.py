import torch
import torch.nn as nn
from torch.utils.data import DataLoader
from tqdm import tqdm

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


def train_model(model, dataset_cls, num_epochs=100, lr=1e-3):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    model.to(device)
    train_set = dataset_cls(split="train")
    train_dataloader = DataLoader(train_set, batch_size=8, num_workers=4)  # expect: PP505 medium
    val_dataloader = DataLoader(dataset_cls(split="val"), batch_size=8, num_workers=4)  # expect: PP505 medium
    trainval_loaders = {"train": train_dataloader, "val": val_dataloader}
    for _epoch in range(num_epochs):
        for phase in ["train", "val"]:
            if phase == "train":
                model.train()
            else:
                model.eval()
            for inputs, labels in tqdm(trainval_loaders[phase]):
                inputs = inputs.to(device)
                labels = labels.to(device)
                optimizer.zero_grad()
                if phase == "train":
                    outputs = model(inputs)
                else:
                    with torch.no_grad():
                        outputs = model(inputs)
                loss = criterion(outputs, labels)
                if phase == "train":
                    loss.backward()
                    optimizer.step()
