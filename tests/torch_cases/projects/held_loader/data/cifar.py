import torch
import torchvision
import torchvision.transforms as transforms


class Cifar:
    def __init__(self, batch_size, threads):
        to_tensor = transforms.ToTensor()
        train_set = torchvision.datasets.CIFAR10(root="./data", train=True, transform=to_tensor)
        test_set = torchvision.datasets.CIFAR10(root="./data", train=False, transform=to_tensor)

        self.train = torch.utils.data.DataLoader(  # expect: PP505
            train_set, batch_size=batch_size, shuffle=True, num_workers=threads
        )
        self.test = torch.utils.data.DataLoader(  # expect: PP505
            test_set, batch_size=batch_size, shuffle=False, num_workers=threads
        )
        self.classes = ("plane", "car", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck")
