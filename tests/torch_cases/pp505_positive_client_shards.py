# federated clients (hold-out 19's PFLlib and FedRep): a client's shard sliced off a list of tensors, or a
# LEAF dict of arrays read by its entries, is held in memory: PP505 at medium and no PP504; the same client
# loop over a torchvision split, read from image files, keeps both findings at their own levels
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class DatasetSplit(Dataset):
    def __init__(self, dataset, idxs, name=None):
        self.dataset = dataset
        self.idxs = list(idxs)
        self.name = name

    def __len__(self):
        return len(self.idxs)

    def __getitem__(self, item):
        if self.name == "femnist":
            image = torch.reshape(torch.tensor(self.dataset["x"][item]), (1, 28, 28))
            return image, torch.tensor(self.dataset["y"][item])
        return self.dataset[self.idxs[item]]


class LocalUpdate:
    def __init__(self, args, dataset=None, idxs=None):
        self.args = args
        self.loss_func = nn.CrossEntropyLoss()
        if args.dataset == "femnist":
            self.ldr_train = DataLoader(  # expect: PP505 medium
                DatasetSplit(dataset, np.ones(len(dataset["x"])), name=args.dataset),
                batch_size=args.local_bs,
                shuffle=True,
            )
        else:
            self.ldr_train = DataLoader(  # expect: PP504 # expect: PP505 medium
                DatasetSplit(dataset, idxs), batch_size=args.local_bs, shuffle=True
            )

    def train(self, net):
        optimizer = torch.optim.SGD(net.parameters(), lr=self.args.lr)
        for images, labels in self.ldr_train:
            images, labels = images.to(self.args.device), labels.to(self.args.device)
            optimizer.zero_grad()
            loss = self.loss_func(net(images), labels)
            loss.backward()
            optimizer.step()


class ClientFomo:
    def __init__(self, args, train_data, model):
        self.train_data = train_data
        self.model = model
        self.device = args.device
        self.batch_size = args.batch_size

    def train(self):
        val_idx = -len(self.train_data) // 5
        train_data = self.train_data[:val_idx]
        loader = DataLoader(train_data, self.batch_size, drop_last=True)  # expect: PP505 medium
        sample = DataLoader(self.train_data[0:100], self.batch_size)  # expect: PP505 medium
        optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01)
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            optimizer.zero_grad()
            nn.functional.cross_entropy(self.model(x), y).backward()
            optimizer.step()
        for x, y in sample:
            x, y = x.to(self.device), y.to(self.device)
            optimizer.zero_grad()
            nn.functional.cross_entropy(self.model(x), y).backward()
            optimizer.step()
