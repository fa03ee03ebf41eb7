import torch
from tools.volumes import test_single_volume
from torch.utils.data import DataLoader


def train(model, train_set, val_set, optimizer, epochs, classes):
    model.cuda()
    trainloader = DataLoader(train_set, batch_size=24, shuffle=True, num_workers=16, pin_memory=True)
    valloader = DataLoader(val_set, batch_size=1, shuffle=False, num_workers=1)
    for _epoch in range(epochs):
        model.train()
        for batch in trainloader:
            images, labels = batch["image"].cuda(), batch["label"].cuda()
            loss = torch.nn.functional.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        scores = []
        for batch in valloader:
            scores.append(test_single_volume(batch["image"], batch["label"], model, classes))
        model.train()
    return scores
