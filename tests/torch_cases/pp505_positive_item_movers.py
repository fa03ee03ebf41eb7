# Batches copied by a def that moves the items of its argument (hold-out 18's EdgeConnect, CompGCN, partial
# convolutions): an own `cuda(*args)` method, a comprehension over the batch, a comprehension over `next()`.
import torch
from torch.utils.data import DataLoader


class InpaintingTrainer:
    def __init__(self, config, model, train_set, masks):
        self.config = config
        self.model = model.to(config.device)
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
        self.train_set = train_set
        self.masks = masks

    def train(self):
        train_loader = DataLoader(self.train_set, batch_size=8, num_workers=4)  # expect: PP505 medium
        for _epoch in range(self.config.epochs):
            for items in train_loader:
                images, edges, masks = self.cuda(*items)
                loss = self.model(images, edges, masks).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

    def fit_masks(self):
        loader = DataLoader(self.masks, batch_size=16, shuffle=True, num_workers=4)  # expect: PP505 medium
        for _step, batch in enumerate(loader):
            sub, label = self.read_batch(batch)
            loss = self.model.score(sub, label)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

    def read_batch(self, batch):
        sub, label = [part.to(self.config.device) for part in batch]
        return sub, label

    def cuda(self, *args):
        return (item.to(self.config.device) for item in args)


def run(dataset, model, optimizer, device, iterations):
    batches = iter(DataLoader(dataset, batch_size=6, shuffle=True, num_workers=8))  # expect: PP505 medium
    for _ in range(iterations):
        image, mask, gt = [x.to(device) for x in next(batches)]
        loss = (model(image, mask) - gt).abs().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
