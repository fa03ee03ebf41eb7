# DnCNN (hold-out 9): a buffer filled per sample with noise torch draws on the CPU (`torch.FloatTensor(size)
# .normal_()` of a size, not of host data) could be drawn on the device
import numpy as np
import torch

model = torch.load("dncnn.pt").cuda()
optimizer = torch.optim.Adam(model.parameters())
loader = torch.utils.data.DataLoader(torch.load("patches.pt"), batch_size=128, num_workers=4, pin_memory=True)
for img_train in loader:
    noise = torch.zeros(img_train.size())
    std_n = np.random.uniform(0, 55, size=noise.size()[0])
    for n in range(noise.size()[0]):
        size_n = noise[0, :, :, :].size()
        noise[n, :, :, :] = torch.FloatTensor(size_n).normal_(mean=0, std=std_n[n] / 255.0)
    noisy = (img_train + noise).cuda(non_blocking=True)
    noise = noise.cuda()  # expect: PP506 high
    loss = ((model(noisy) - noise) ** 2).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
