# the batch moved once before the critic loop, and an inner loop over chunks that binds its own slice
# before moving it: nothing crosses twice
import torch
from torch.utils.data import DataLoader

device = torch.device("cuda")
discriminator = torch.load("discriminator.pt").to(device)
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=1e-4)
loader = DataLoader(torch.load("cifar.pt"), batch_size=64, num_workers=4, pin_memory=True)
n_critic, chunks = int(input()), int(input())

for batch, _ in loader:
    x = batch.to(device)
    for _ in range(n_critic):
        optimizer_D.zero_grad()
        d_loss = -discriminator(x).mean()
        d_loss.backward()
        optimizer_D.step()
    for k in range(chunks):
        part = batch[k::chunks]
        optimizer_D.zero_grad()
        loss = -discriminator(part.to(device)).mean()
        loss.backward()
        optimizer_D.step()
