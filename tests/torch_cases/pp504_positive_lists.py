import torch
import torchvision
from torchvision import transforms

device = torch.device("cuda")
augment = transforms.Compose([transforms.RandomCrop(32, padding=4), transforms.ToTensor()])
cifar10 = torchvision.datasets.CIFAR10("data", train=True, download=True, transform=augment)
# a list of file names is no list of examples: each item is still read and decoded when the batch is made
names = [f"img_{i}.png" for i in range(50000)]
train_loader = torch.utils.data.DataLoader(cifar10, 64, shuffle=True, pin_memory=True)  # expect: PP504 high
name_loader = torch.utils.data.DataLoader(names, batch_size=64, pin_memory=True)  # expect: PP504


def training_loop(n_epochs, optimizer, model, loss_fn, loader):
    for _ in range(n_epochs):
        for imgs, labels in loader:
            loss = loss_fn(model(imgs.to(device)), labels.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


model = torch.nn.Linear(3072, 2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
training_loop(100, optimizer, model, torch.nn.CrossEntropyLoss(), train_loader)
training_loop(100, optimizer, model, torch.nn.CrossEntropyLoss(), name_loader)
