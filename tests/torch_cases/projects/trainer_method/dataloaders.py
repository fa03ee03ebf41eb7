"""The MNIST loaders of a WGAN-GP project (EmilienDupont/wgan-gp's shape): made here, trained on by a
method of a trainer class of another module that a third module hands them to."""

from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def get_mnist_dataloaders(batch_size=128):
    all_transforms = transforms.Compose([transforms.Resize(32), transforms.ToTensor()])
    train_data = datasets.MNIST("../data", train=True, download=True, transform=all_transforms)
    test_data = datasets.MNIST("../data", train=False, transform=all_transforms)
    train_loader = DataLoader(  # expect: PP504  # expect: PP505
        train_data, batch_size=batch_size, shuffle=True
    )
    test_loader = DataLoader(test_data, batch_size=batch_size, shuffle=True)
    return train_loader, test_loader
