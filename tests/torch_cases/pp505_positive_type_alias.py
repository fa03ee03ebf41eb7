# the PyTorch-GAN idiom (hold-out 9's gans-with-pytorch): `Tensor = torch.cuda.FloatTensor if cuda else
# torch.FloatTensor`, then every batch is cast with `.type(Tensor)`, a copy to the GPU on every step
import torch
import torch.nn as nn
from torch.autograd import Variable
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

cuda = torch.cuda.is_available()
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
generator = torch.load("generator.pt")
discriminator = torch.load("discriminator.pt")
if cuda:
    generator.cuda()
    discriminator.cuda()
adversarial_loss = nn.BCELoss()
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=2e-4)
dataset = datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
dataloader = DataLoader(dataset, batch_size=64, shuffle=True, num_workers=4)  # expect: PP505 high

for _epoch in range(200):
    for _i, (imgs, _) in enumerate(dataloader):
        real_imgs = Variable(imgs.type(Tensor))
        valid = Variable(Tensor(imgs.size(0), 1).fill_(1.0), requires_grad=False)
        optimizer_D.zero_grad()
        d_loss = adversarial_loss(discriminator(real_imgs), valid)
        d_loss.backward()
        optimizer_D.step()
