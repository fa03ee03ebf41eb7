import torch
import torchvision
from torch.utils.data import DataLoader

device = torch.device("cuda")


def train(model, data_loader, optimizer):
    for data, target in data_loader:
        data, target = data.to(device), target.to(device)
        loss = torch.nn.functional.cross_entropy(model(data), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def count(data_loader):
    return sum(len(target) for _, target in data_loader)


# (review 24 item 1) `loaders[1]` is only `test_loader`, which is counted, never trained on: the constant index
# picks one loader of the list, not all of them
trainset = torchvision.datasets.ImageFolder("data/train")
testset = torchvision.datasets.ImageFolder("data/test")
train_loader = DataLoader(trainset, batch_size=32, shuffle=True, num_workers=4, pin_memory=True)
test_loader = DataLoader(testset, batch_size=32)
loaders = [train_loader, test_loader]
model = torch.nn.Linear(8, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _epoch in range(100):
    train(model, loaders[0], optimizer)
    print(count(loaders[1]))
