# a loader bound to the name of the dataset it batches (`data = DataLoader(data, ...)`): the dataset is
# what the name held before the loader, here a TensorDataset of tensors in memory, so the finding is a level
# below the rule's own; the same shape over an image folder keeps the rule's level
import torch
import torchvision.datasets as dset
import torchvision.transforms as trn
from torch.utils.data import DataLoader, TensorDataset


def train_features(net, optimizer, features, labels):
    data = TensorDataset(features, labels)
    data = DataLoader(data, batch_size=64, shuffle=True)  # expect: PP505 low
    for x, y in data:
        loss = torch.nn.functional.cross_entropy(net(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_images(net, optimizer, root):
    data = dset.ImageFolder(root, transform=trn.ToTensor())
    data = DataLoader(data, batch_size=64, shuffle=True, num_workers=4)  # expect: PP505
    for x, y in data:
        loss = torch.nn.functional.cross_entropy(net(x.cuda()), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
