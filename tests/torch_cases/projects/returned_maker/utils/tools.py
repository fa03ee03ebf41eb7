import torch
from torchvision import datasets, transforms


def cifar_sets(config):
    transform = transforms.Compose([transforms.RandomCrop(32, padding=4), transforms.ToTensor()])
    train_set = datasets.CIFAR10(config["root"], train=True, transform=transform, download=True)
    test_set = datasets.CIFAR10(config["root"], train=False, transform=transforms.ToTensor())
    train_loader = torch.utils.data.DataLoader(  # expect: PP505
        train_set, batch_size=config["batch_size"], shuffle=True, num_workers=4
    )
    test_loader = torch.utils.data.DataLoader(
        test_set, batch_size=config["batch_size"], num_workers=4, pin_memory=True
    )
    return train_loader, test_loader, len(train_set)


def folder_sets(config):
    train_set = datasets.ImageFolder(config["root"], transform=transforms.ToTensor())
    train_loader = torch.utils.data.DataLoader(
        train_set, batch_size=config["batch_size"], shuffle=True, num_workers=4, pin_memory=True
    )
    return train_loader, None, len(train_set)


def get_data(config):
    if "cifar" in config["dataset"]:
        return cifar_sets(config)
    return folder_sets(config)
