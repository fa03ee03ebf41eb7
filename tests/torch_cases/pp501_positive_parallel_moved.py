"""torch-fix104: a model wrapped for data parallelism and moved in one expression (`model =
torch.nn.DataParallel(model).cuda()`, PAN++'s `main`) and handed to the training def, whose loop moves
nothing itself: the wrapper scatters each batch to the GPUs, so the loop's `.item()` waits for them."""

import torch
from torch.utils.data import DataLoader


def train(train_loader, model, optimizer, meter):
    model.train()
    for data in train_loader:
        outputs = model(**data)
        loss = torch.mean(outputs["loss_text"])
        meter.update(loss.item())  # expect: PP501
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(build_model, dataset, meter):
    train_loader = DataLoader(dataset, batch_size=16, shuffle=True, num_workers=4, pin_memory=True)
    model = build_model()
    model = torch.nn.DataParallel(model).cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    train(train_loader, model, optimizer, meter)
