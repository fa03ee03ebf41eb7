import torch
import torchvision as tv
from torch.utils.data import DataLoader

# A chapter that trains on the CPU first and moves to the GPU only in a later cell.
trainset = tv.datasets.CIFAR10(root="data", train=True, download=True, transform=tv.transforms.ToTensor())
trainloader = DataLoader(trainset, batch_size=4, shuffle=True, num_workers=2)


def train_on_cpu(net, criterion, optimizer):
    for _ in range(2):
        running_loss = 0.0
        for inputs, labels in trainloader:
            optimizer.zero_grad()
            loss = criterion(net(inputs), labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
    return running_loss


def predict_on_gpu(net, images):
    if torch.cuda.is_available():
        net.cuda()
        return net(images.cuda())
    return net(images)
