# Near misses of pp505_positive_item_movers.py: the helper converts the items but copies none of them, the
# comprehension over `next()` only casts, and the own `cuda()` moves the model, not its argument.
import torch
from torch.utils.data import DataLoader


class InpaintingTrainer:
    def __init__(self, config, model, train_set):
        self.config = config
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
        self.train_set = train_set

    def train(self):
        self.model.to(self.config.device)
        train_loader = DataLoader(self.train_set, batch_size=8, shuffle=True, num_workers=4)
        for _epoch in range(self.config.epochs):
            for items in train_loader:
                images, edges, masks = self.float(*items)
                loss = self.model(images, edges, masks).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

    def float(self, *args):
        return (item.float() for item in args)

    def to_model_device(self, batch):
        self.model.to(self.config.device)
        return batch


def run(dataset, model, optimizer, device, iterations):
    model.to(device)
    batches = iter(DataLoader(dataset, batch_size=6, shuffle=True, num_workers=8))
    for _ in range(iterations):
        image, mask, gt = [x.float() for x in next(batches)]
        loss = (model(image, mask) - gt).abs().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def fit(dataset, model, optimizer, device, iterations):
    model.to(device)
    batches = iter(DataLoader(dataset, batch_size=6, shuffle=True, num_workers=8, pin_memory=True))
    previews = iter(DataLoader(dataset, batch_size=10, shuffle=True, num_workers=2))

    def render_reference():
        preview = next(previews).to(device)
        return model.render(preview)

    for step in range(iterations):
        image, mask = [x.to(device, non_blocking=True) for x in next(batches)]
        loss = model(image, mask).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step == 0:
            render_reference()
