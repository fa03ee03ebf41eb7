import torch
import torchvision
import utils

dataset = torchvision.datasets.ImageFolder("data/celeba", transform=torchvision.transforms.ToTensor())
data_loader = torch.utils.data.DataLoader(dataset, batch_size=64, shuffle=True, num_workers=4)

D = utils.build_model()
utils.cuda(D)
opt = torch.optim.Adam(D.parameters())

for _epoch in range(50):
    for imgs, labels in data_loader:
        imgs = utils.to_tensor(imgs)
        loss = D(imgs, labels).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
