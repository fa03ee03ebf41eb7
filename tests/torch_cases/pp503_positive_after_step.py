# torch-fix17: a final test loop that rebinds `classifier = classifier.eval()` on every batch (PointNet), and a
# second forward after `model.eval()` at the end of every training step, for a metric (DnCNN's PSNR)
import torch
import torch.nn.functional as F
from models import DnCNN, PointNetCls
from utils import batch_PSNR

classifier = PointNetCls(k=40).cuda()
model = DnCNN(channels=1).cuda()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
train_loader = torch.utils.data.DataLoader(
    torch.load("train.pt"), batch_size=128, num_workers=4, pin_memory=True
)
test_loader = torch.utils.data.DataLoader(
    torch.load("test.pt"), batch_size=32, num_workers=4, pin_memory=True
)

for _epoch in range(50):
    for _i, (img, noise) in enumerate(train_loader):
        model.train()
        optimizer.zero_grad()
        img, noise = img.cuda(non_blocking=True), noise.cuda(non_blocking=True)
        loss = F.mse_loss(model(img + noise), noise)
        loss.backward()
        optimizer.step()
        model.eval()
        out = torch.clamp(img + noise - model(img + noise), 0.0, 1.0)  # expect: PP503
        psnr = batch_PSNR(out, img, 1.0)

total_correct = 0
for _i, (points, target) in enumerate(test_loader):
    points, target = points.cuda(non_blocking=True), target.cuda(non_blocking=True)
    classifier = classifier.eval()
    pred, _, _ = classifier(points)  # expect: PP503 high
    total_correct += pred.argmax(1).eq(target).sum()
print(total_correct)
