import torch
import torchvision as tv
from torch.utils.data import DataLoader

# A notebook's CPU chapter: it trains first, and moves the same net to the GPU only in a later cell.
trainset = tv.datasets.CIFAR10(root="data", train=True, download=True, transform=tv.transforms.ToTensor())
train_loader = DataLoader(trainset, batch_size=64, shuffle=True, num_workers=2)
net = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3072, 10))
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)

net.train()
train_correct = 0
for batch, targets in train_loader:
    output = net(batch)
    loss = criterion(output, targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    train_correct += output.argmax(1).eq(targets).sum().item()

device = torch.device("cuda:0")
net = net.to(device)
