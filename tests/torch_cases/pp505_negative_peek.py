import torch
import torchvision
from torchvision import transforms

device = torch.device("cuda")
transform = transforms.Compose([transforms.Resize((299, 299)), transforms.ToTensor()])


def get_imagenet_data():
    data = torchvision.datasets.ImageFolder("./data/imagenet", transform=transform)
    data_loader = torch.utils.data.DataLoader(data, batch_size=1, shuffle=False)
    return iter(data_loader).next()  # one batch, shown once


def get_accuracy(model, data_loader):
    correct = 0
    total = 0
    with torch.no_grad():
        for images, labels in data_loader:
            outputs = model(images.to(device))
            correct += (outputs.argmax(1).cpu() == labels).sum()  # expect: PP501 (counted copy)
            total += labels.size(0)
    return correct / total
