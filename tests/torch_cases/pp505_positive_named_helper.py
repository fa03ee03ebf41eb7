import torch
import torchvision
import utils
from torch.autograd import Variable

dataset = torchvision.datasets.ImageFolder("data/celeba", transform=torchvision.transforms.ToTensor())
data_loader = torch.utils.data.DataLoader(dataset, batch_size=64, num_workers=4)  # expect: PP505 high

D, G = utils.build_models()
utils.cuda([D, G])
d_opt = torch.optim.Adam(D.parameters())

for _epoch in range(50):
    for imgs, _ in data_loader:
        G.train()
        imgs = Variable(imgs)
        z = Variable(torch.randn(imgs.size(0), 100))
        imgs, z = utils.cuda([imgs, z])  # expect: PP506 high
        d_loss = D(G(z)).mean() - D(imgs).mean()
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()
