from torch.utils.data import DataLoader
from torchvision import datasets, transforms


def build_transform(size):
    return transforms.Compose([transforms.Resize(size), transforms.ToTensor()])


def make_loader(root, split, batch_size, size=64):
    image_set = datasets.ImageFolder(f"{root}/{split}", transform=build_transform(size))
    return DataLoader(
        image_set,
        batch_size=batch_size,
        shuffle=split == "train",
        num_workers=4,
        pin_memory=True,
    )


def make_paired_loaders(root, batch_size):
    source = datasets.ImageFolder(f"{root}/photos", transform=build_transform(128))
    target = datasets.ImageFolder(f"{root}/paintings", transform=build_transform(128))
    source_loader = DataLoader(source, batch_size, shuffle=True, num_workers=4, pin_memory=True)
    target_loader = DataLoader(target, batch_size, shuffle=True, num_workers=4, pin_memory=True)
    return source_loader, target_loader
