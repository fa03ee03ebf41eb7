# out-of-distribution scores over several sets (hold-out 8's outlier-exposure test.py): a loader over a
# TensorDataset held in memory is reported a level below the rule's own; the name bound again to an image
# folder for the next loader is a dataset read from files, which the scoring loop copies whole: high
import numpy as np
import torch
import torchvision.datasets as dset
import torchvision.transforms as trn
from torch.utils.data import DataLoader, TensorDataset, random_split


def get_ood_scores(net, loader):
    scores = []
    for data, _ in loader:
        output = net(data.cuda())  # expect: PP503
        scores.append(output.max(1)[0].data.cpu().numpy())
    return np.concatenate(scores)


net = torch.load("model.pt").cuda()
dummy_targets = torch.ones(2000)
ood_data = torch.from_numpy(np.float32(np.random.normal(size=(2000, 1, 28, 28))))
ood_data = TensorDataset(ood_data, dummy_targets)
ood_loader = DataLoader(ood_data, batch_size=200, shuffle=True)  # expect: PP505 low
get_ood_scores(net, ood_loader)

ood_data = dset.ImageFolder("icons-50", transform=trn.ToTensor())
ood_loader = DataLoader(ood_data, batch_size=200, shuffle=True)  # expect: PP505 high
get_ood_scores(net, ood_loader)

features = TensorDataset(torch.randn(5000, 64), torch.ones(5000, 1))
train_set, val_set = random_split(features, [4000, 1000])
val_loader = DataLoader(val_set, batch_size=8)  # expect: PP505 low
get_ood_scores(net, val_loader)
