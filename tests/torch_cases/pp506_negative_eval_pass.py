# an evaluation def called once per epoch by the training loop (hold-out 8's YOLOv7 test.py, timm's
# validate.py): the IoU vector and the warm-up input are made before its own loop over the loader's
# batches, so once per evaluation, not per step
import torch
import torch.nn as nn

device = torch.device("cuda")


def test(model, dataloader, imgsz=640):
    model.eval()
    iouv = torch.linspace(0.5, 0.95, 10).to(device)
    model(torch.zeros(1, 3, imgsz, imgsz).to(device))  # run once
    stats = []
    with torch.no_grad():
        for img, _targets in dataloader:
            out = model(img.to(device, non_blocking=True))
            stats.append((out > iouv[0]).sum())
    return torch.stack(stats).sum()


def train(model, train_loader, val_loader, epochs):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for _epoch in range(epochs):
        model.train()
        for img, target in train_loader:
            loss = criterion(model(img.to(device)), target.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        test(model, val_loader)
