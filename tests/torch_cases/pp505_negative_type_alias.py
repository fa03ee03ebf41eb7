# a cast to a CPU tensor type (`.type(Tensor)` where every binding of `Tensor` is a CPU type) copies
# nothing to a GPU, so the unpinned loader is not reported
import torch
import torch.nn as nn
from torch.autograd import Variable
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

Tensor = torch.FloatTensor
discriminator = torch.load("discriminator.pt")
adversarial_loss = nn.BCELoss()
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=2e-4)
dataset = datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
dataloader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=4)

for _epoch in range(200):
    for _i, (imgs, _) in enumerate(dataloader):
        real_imgs = Variable(imgs.type(Tensor))
        valid = Variable(Tensor(imgs.size(0), 1).fill_(1.0), requires_grad=False)
        optimizer_D.zero_grad()
        d_loss = adversarial_loss(discriminator(real_imgs), valid)
        d_loss.backward()
        optimizer_D.step()
