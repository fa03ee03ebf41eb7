# hold-out 9's WGAN-GP: the critic's `for _ in range(n_critic):` inside the loader loop casts the same host
# batch to the GPU on each of its steps; once before the critic loop does
import torch
from torch.autograd import Variable
from torch.utils.data import DataLoader

cuda = torch.cuda.is_available()
Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
generator = torch.load("generator.pt").cuda()
discriminator = torch.load("discriminator.pt").cuda()
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=1e-4)
batch_iterator = DataLoader(torch.load("cifar.pt"), batch_size=64, num_workers=4, pin_memory=True)
n_critic = int(input())

for _epoch in range(200):
    for _i, (batch, _) in enumerate(batch_iterator):
        for _ in range(n_critic):
            x = Variable(batch.type(Tensor))  # expect: PP506 medium
            noise = Variable(Tensor(batch.size(0), 128, 1, 1).normal_(0, 1))
            optimizer_D.zero_grad()
            d_loss = discriminator(generator(noise)).mean() - discriminator(x).mean()
            d_loss.backward()
            optimizer_D.step()
