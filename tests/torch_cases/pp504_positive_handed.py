"""Training loaders whose loop is in another module: the loaders' iterators go, with the optimizer, to an
imported `train` on every step (RTFM's shape, `num_workers=0` written out), and a helper returns a loader
over an image-folder dataset that opens and decodes every image in `__getitem__` (imagen's shape)."""

from pathlib import Path

import torch
import torch.optim as optim
from dataset import FeatureDataset
from model import Model
from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms as T
from train import train


def main(args):
    normal_loader = DataLoader(  # expect: PP504
        FeatureDataset(args, test_mode=False, is_normal=True),
        batch_size=args.batch_size,
        shuffle=True,
        num_workers=0,
        pin_memory=False,
        drop_last=True,
    )
    abnormal_loader = DataLoader(  # expect: PP504
        FeatureDataset(args, test_mode=False, is_normal=False),
        batch_size=args.batch_size,
        shuffle=True,
        num_workers=0,
        pin_memory=False,
        drop_last=True,
    )
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = Model(args.feature_size).to(device)
    optimizer = optim.Adam(model.parameters(), lr=1e-3, weight_decay=0.005)
    for step in range(1, args.max_epoch + 1):
        if (step - 1) % len(normal_loader) == 0:
            normal_iter = iter(normal_loader)
        if (step - 1) % len(abnormal_loader) == 0:
            abnormal_iter = iter(abnormal_loader)
        train(normal_iter, abnormal_iter, model, args.batch_size, optimizer, device)


class ImageFolder(Dataset):
    def __init__(self, folder, image_size, exts=("jpg", "png")):
        self.paths = [p for ext in exts for p in Path(folder).glob(f"**/*.{ext}")]
        self.transform = T.Compose([T.Resize(image_size), T.CenterCrop(image_size), T.ToTensor()])

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        img = Image.open(self.paths[index])
        return self.transform(img)


def get_images_dataloader(folder, *, batch_size, image_size, shuffle=True, pin_memory=True):
    ds = ImageFolder(folder, image_size)
    dl = DataLoader(ds, batch_size=batch_size, shuffle=shuffle, pin_memory=pin_memory)  # expect: PP504 high
    return dl
