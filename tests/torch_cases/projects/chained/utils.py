import torchvision
from torch.utils.data import DataLoader


def get_data(args):
    dataset = torchvision.datasets.ImageFolder(args.dataset_path)
    return DataLoader(dataset, batch_size=args.batch_size, shuffle=True)  # expect: PP504  # expect: PP505
