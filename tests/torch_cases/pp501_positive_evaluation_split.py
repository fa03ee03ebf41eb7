"""A script's test pass after each training epoch, with no `no_grad`, no `model.eval()` and no def named for
it (pix2pix's PSNR over `testing_data_loader`, the crowd counter's MAE over `enumerate(tqdm(test_loader))`,
hold-outs 25 and 23): the loader's name says the loop evaluates (`_evaluation_split_loop`, torch-fix90), so
each batch's `.item()` into a total is an evaluation read, at the rule's `high`."""

from math import log10

import torch
from torch.utils.data import DataLoader
from tqdm import tqdm

device = torch.device("cuda")
net = torch.nn.Conv2d(3, 3, 3, padding=1).to(device)
criterion = torch.nn.MSELoss()
optimizer = torch.optim.Adam(net.parameters(), lr=2e-4)
training_data_loader = DataLoader(
    torch.load("train.pt"), batch_size=4, shuffle=True, num_workers=4, pin_memory=True
)
testing_data_loader = DataLoader(torch.load("test.pt"), batch_size=1, num_workers=4, pin_memory=True)

for _epoch in range(100):
    for batch in training_data_loader:
        x, y = batch[0].to(device), batch[1].to(device)
        optimizer.zero_grad()
        loss = criterion(net(x), y)
        loss.backward()
        optimizer.step()

    avg_psnr = 0
    for batch in testing_data_loader:
        x, y = batch[0].to(device), batch[1].to(device)
        mse = criterion(net(x), y)
        avg_psnr += 10 * log10(1 / mse.item())  # expect: PP501 high
    print(avg_psnr / len(testing_data_loader))

    mae = 0
    for _i, (img, target) in enumerate(tqdm(testing_data_loader)):
        img, target = img.to(device), target.to(device)
        mae += abs(net(img).sum() - target.sum()).item()  # expect: PP501 high
    print(mae / len(testing_data_loader))
