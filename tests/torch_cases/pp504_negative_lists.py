import torch
import torchvision

device = torch.device("cuda")
cifar10 = torchvision.datasets.CIFAR10("data", train=True, download=True)
label_map = {0: 0, 2: 1}

# the classes wanted, as a list of (tensor, label) pairs already in memory: workers would only pickle them
cifar2 = [(img, label_map[label]) for img, label in cifar10 if label in [0, 2]]
train_loader = torch.utils.data.DataLoader(cifar2, batch_size=64, shuffle=True, pin_memory=True)

eights = [[torch.rand(1, 28, 28), torch.tensor(0)] for _ in range(2000)]
ones = [[torch.rand(1, 28, 28), torch.tensor(1)] for _ in range(2000)]
digits = eights[1000:] + ones[1000:]
digit_loader = torch.utils.data.DataLoader(digits, batch_size=64, shuffle=True, pin_memory=True)

features = [(torch.rand(512), 1), (torch.rand(512), 0)]
feature_loader = torch.utils.data.DataLoader(features, batch_size=2, pin_memory=True)


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
training_loop(10, optimizer, model, torch.nn.CrossEntropyLoss(), digit_loader)
training_loop(10, optimizer, model, torch.nn.CrossEntropyLoss(), feature_loader)
