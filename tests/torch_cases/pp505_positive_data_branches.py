# one loader per data set in the branches of an if/elif (hold-out 8's BayesianDefense scripts): only one
# branch runs, so the names are bound once, and each branch's unpinned loader is reported
import torch
import torchvision
import torchvision.transforms as transforms
from torch.utils.data import DataLoader

data = "cifar10"
if data == "cifar10":
    trainset = torchvision.datasets.CIFAR10(root="./data", train=True, transform=transforms.ToTensor())
    trainloader = DataLoader(  # expect: PP505 high
        trainset, batch_size=128, shuffle=True, num_workers=2
    )
elif data == "imagenet-sub":
    trainset = torchvision.datasets.ImageFolder("./sngan_dog_cat", transform=transforms.ToTensor())
    trainloader = DataLoader(  # expect: PP505 high
        trainset, batch_size=128, shuffle=True, num_workers=2
    )
else:
    raise ValueError(data)

net = torchvision.models.vgg16(num_classes=10).cuda()
optimizer = torch.optim.Adam(net.parameters())


def train(epoch):
    net.train()
    for inputs, targets in trainloader:
        inputs, targets = inputs.cuda(), targets.cuda()
        loss = torch.nn.functional.cross_entropy(net(inputs), targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


for epoch in range(100):
    train(epoch)
