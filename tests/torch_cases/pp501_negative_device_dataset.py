import torchvision as tv
from torch.utils.data import DataLoader

trainset = tv.datasets.CIFAR10(root="data", train=True, download=True, transform=tv.transforms.ToTensor())
trainloader = DataLoader(trainset, batch_size=4, shuffle=True, num_workers=2)


def train_on_cpu(net, criterion, optimizer):
    net.train()
    running_loss = 0.0
    for inputs, labels in trainloader:
        optimizer.zero_grad()
        loss = criterion(net(inputs), labels)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
    return running_loss


def predict_on_gpu(net, images):
    net.cuda()
    return net(images.cuda())


def train_with_schedule(model, loader, criterion, optimizer, scheduler, device):
    model.train()
    best = 0.0
    for x, y in loader:
        x, y = x.to(device), y.to(device)
        out = model(x)
        loss = criterion(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        correct = (out.argmax(1) == y).sum().item()
        accuracy = correct / y.size(0)
        if accuracy > best:
            best = accuracy
            scheduler.step()
    return best


def dream(model, image, guide, steps, rate):
    model.train()
    for _ in range(steps):
        image = image.cuda().requires_grad_()
        out = model(image)
        out.backward(guide)
        ratio = image.grad.data.cpu().numpy().mean()
        step = rate / ratio
        image.data.add_(image.grad.data * step)
    return image
