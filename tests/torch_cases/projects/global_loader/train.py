import torch
import torch.nn as nn
import torch.optim as optim
from models import resnet18
from utils import get_preview_dataloader, get_test_dataloader, get_training_dataloader


def train(epoch):
    net.train()
    for _batch_index, (images, labels) in enumerate(cifar100_training_loader):
        labels = labels.cuda()
        images = images.cuda()
        optimizer.zero_grad()
        loss = loss_function(net(images), labels)
        loss.backward()
        optimizer.step()


@torch.no_grad()
def eval_training(epoch):
    net.eval()
    correct = 0.0
    for images, labels in cifar100_test_loader:
        outputs = net(images.cuda())
        correct += outputs.argmax(1).eq(labels.cuda()).sum()
    return correct.float() / len(cifar100_test_loader.dataset)


if __name__ == "__main__":
    net = resnet18().cuda()
    cifar100_training_loader = get_training_dataloader((0.5,), (0.25,), num_workers=4, batch_size=128)
    cifar100_test_loader = get_test_dataloader((0.5,), (0.25,), num_workers=4, batch_size=128)
    preview_images, _ = next(iter(get_preview_dataloader()))
    loss_function = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(1, 200):
        train(epoch)
        eval_training(epoch)
