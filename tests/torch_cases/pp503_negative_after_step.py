# torch-fix17 near misses: the forward after the step under no_grad, a forward in eval mode that feeds the
# next backward (a Fisher estimate), one every 100 steps, and a loop that builds a new model each time
import torch
import torch.nn.functional as F
from models import DnCNN, build
from utils import batch_PSNR

model = DnCNN(channels=1).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_loader = torch.utils.data.DataLoader(
    torch.load("train.pt"), batch_size=128, num_workers=4, pin_memory=True
)
test_loader = torch.utils.data.DataLoader(
    torch.load("test.pt"), batch_size=32, num_workers=4, pin_memory=True
)

for _epoch in range(50):
    for i, (img, noise) in enumerate(train_loader):
        model.train()
        optimizer.zero_grad()
        img, noise = img.cuda(non_blocking=True), noise.cuda(non_blocking=True)
        loss = F.mse_loss(model(img + noise), noise)
        loss.backward()
        optimizer.step()
        model.eval()
        with torch.no_grad():
            out = torch.clamp(img + noise - model(img + noise), 0.0, 1.0)
        psnr = batch_PSNR(out, img, 1.0)
        if i % 100 == 0:
            print(model(img).mean().item())

for img, _ in train_loader:
    optimizer.zero_grad()
    img = img.cuda(non_blocking=True)
    loss = model(img).mean()
    loss.backward()
    optimizer.step()
    model.eval()
    fisher_loss = F.log_softmax(model(img), dim=1).mean()
    fisher_loss.backward()
    model.train()

for arch in ["small", "large", "wide", "deep", "tiny", "huge", "base"]:
    net = build(arch).cuda()
    net = net.eval()
    print(net(torch.zeros(1, 1, 40, 40, device="cuda")).shape)
