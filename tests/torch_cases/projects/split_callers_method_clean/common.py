import torch
import torchvision


def build():
    device = torch.device("cuda")
    model = torchvision.models.resnet18(num_classes=10).to(device)
    data = torchvision.datasets.CIFAR10("data", train=False, transform=torchvision.transforms.ToTensor())
    loader = torch.utils.data.DataLoader(data, batch_size=256, num_workers=4, pin_memory=True)
    return model, loader, device
