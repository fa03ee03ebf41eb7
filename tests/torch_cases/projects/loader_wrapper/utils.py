"""An image-to-image translation project's data helpers: `get_all_data_loaders` returns the loaders two
makers of this module return, in a tuple."""

import os

from torch.utils.data import DataLoader
from torchvision import transforms
from torchvision.datasets import ImageFolder


def get_all_data_loaders(conf):
    batch_size, num_workers = conf["batch_size"], conf["num_workers"]
    train_loader_a = get_data_loader_folder(
        os.path.join(conf["data_root"], "trainA"), batch_size, True, num_workers
    )
    train_loader_b = get_data_loader_folder(
        os.path.join(conf["data_root"], "trainB"), batch_size, True, num_workers
    )
    test_loader_a = get_data_loader_folder(
        os.path.join(conf["data_root"], "testA"), batch_size, False, num_workers
    )
    test_loader_b = get_data_loader_folder(
        os.path.join(conf["data_root"], "testB"), batch_size, False, num_workers
    )
    return train_loader_a, train_loader_b, test_loader_a, test_loader_b


def get_data_loader_folder(input_folder, batch_size, train, num_workers=4):
    transform_list = [transforms.ToTensor(), transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))]
    if train:
        transform_list = [transforms.RandomHorizontalFlip()] + transform_list
    dataset = ImageFolder(input_folder, transform=transforms.Compose(transform_list))
    loader = DataLoader(  # expect: PP505
        dataset=dataset, batch_size=batch_size, shuffle=train, drop_last=True, num_workers=num_workers
    )
    return loader
