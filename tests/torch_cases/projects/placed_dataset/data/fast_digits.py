import torch
from torch.utils.data import Dataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class FastDigits(Dataset):
    """Digits normalised once and kept on the GPU."""

    def __init__(self, images, labels):
        images = images.float().div(255).unsqueeze(1)
        self.images, self.labels = images.to(device), labels.to(device)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        return self.images[index], self.labels[index]


class HostDigits(Dataset):
    """The same digits kept in host memory (a device move of something `__getitem__` never reads)."""

    def __init__(self, images, labels):
        self.images, self.labels = images.float().div(255).unsqueeze(1), labels
        self.mean = images.float().mean().to(device)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        return self.images[index], self.labels[index]


def make_digit_sets(path):
    train_images, train_labels, test_images, test_labels = torch.load(path)
    train_set = FastDigits(train_images, train_labels)
    test_set = FastDigits(test_images, test_labels)
    return train_set, test_set


def make_host_sets(path):
    train_images, train_labels, test_images, test_labels = torch.load(path)
    return HostDigits(train_images, train_labels), HostDigits(test_images, test_labels)
