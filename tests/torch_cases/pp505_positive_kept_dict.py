# a handwriting trainer (hold-out 21's HTR-best-practices): `prepare_dataloaders` keeps its loaders in a dict on
# the instance (`self.loaders = {'train': ..., 'val': ...}`) and `train` iterates `tqdm(self.loaders['train'])`,
# copying each batch to the GPU; the loaders lack pin_memory, so PP505 reports them where they are made. The
# twin trainer pins its loaders and stays silent.
import torch
import tqdm
from torch.utils.data import DataLoader


class Trainer:
    def __init__(self, config, net, train_set, val_set):
        self.config = config
        self.net = net.to(config.device)
        self.optimizer = torch.optim.Adam(self.net.parameters())
        self.prepare_dataloaders(train_set, val_set)

    def prepare_dataloaders(self, train_set, val_set):
        workers = self.config.num_workers
        train_loader = DataLoader(train_set, batch_size=32, num_workers=workers)  # expect: PP505 medium
        val_loader = DataLoader(val_set, batch_size=64, num_workers=workers)  # expect: PP505 medium
        self.loaders = {"train": train_loader, "val": val_loader}

    def train(self, epoch):
        device = self.config.device
        self.net.train()
        t = tqdm.tqdm(self.loaders["train"])
        t.set_description(f"Epoch {epoch}")
        for img, target in t:
            img, target = img.to(device), target.to(device)
            self.optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(self.net(img), target)
            loss.backward()
            self.optimizer.step()

    def test(self):
        self.net.eval()
        loader = self.loaders["val"]
        with torch.no_grad():
            for img, _ in loader:
                self.net(img.to(self.config.device))


class PinnedTrainer(Trainer):
    def prepare_dataloaders(self, train_set, val_set):
        workers = self.config.num_workers
        train_loader = DataLoader(train_set, batch_size=32, num_workers=workers, pin_memory=True)
        val_loader = DataLoader(val_set, batch_size=64, num_workers=workers, pin_memory=True)
        self.loaders = {"train": train_loader, "val": val_loader}
