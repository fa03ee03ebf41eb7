"""torch-fix104: the same loop when no model of the module is wrapped and moved (a CPU run): a loop over
a loader that moves nothing reads host values."""

import torch
from torch.utils.data import DataLoader


def train(train_loader, model, optimizer, meter):
    model.train()
    for data in train_loader:
        outputs = model(**data)
        loss = torch.mean(outputs["loss_text"])
        meter.update(loss.item())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(build_model, dataset, meter):
    train_loader = DataLoader(dataset, batch_size=16, shuffle=True, num_workers=4, pin_memory=True)
    model = build_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    train(train_loader, model, optimizer, meter)
