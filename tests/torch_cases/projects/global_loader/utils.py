import torchvision
import torchvision.transforms as transforms
from torch.utils.data import DataLoader


def get_training_dataloader(mean, std, batch_size=16, num_workers=2, shuffle=True):
    transform_train = transforms.Compose([transforms.RandomCrop(32, padding=4), transforms.ToTensor()])
    cifar100_training = torchvision.datasets.CIFAR100(root="./data", train=True, transform=transform_train)
    cifar100_training_loader = DataLoader(  # expect: PP505
        cifar100_training, shuffle=shuffle, num_workers=num_workers, batch_size=batch_size
    )
    return cifar100_training_loader


def get_test_dataloader(mean, std, batch_size=16, num_workers=2):
    cifar100_test = torchvision.datasets.CIFAR100(root="./data", train=False, transform=transforms.ToTensor())
    return DataLoader(cifar100_test, num_workers=num_workers, batch_size=batch_size, pin_memory=True)


def get_preview_dataloader(batch_size=8):
    cifar100_test = torchvision.datasets.CIFAR100(root="./data", train=False, transform=transforms.ToTensor())
    return DataLoader(cifar100_test, batch_size=batch_size)
