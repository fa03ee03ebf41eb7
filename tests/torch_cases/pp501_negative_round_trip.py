# Neighbours of a host round trip that stay silent: a model moved off the device to save its weights and
# back, a copy made only every N steps, a tensor a torch factory made on the host, and a preview helper no
# step or forward calls; in a forward, a copy under an `if` (a LANCZOS resize on the host) and a test-time
# ensemble the forward runs only under `if not self.training:` (hold-outs 33, 36 and 37).
import torch
import torch.nn.functional as F


def train(model, loader, optimizer, save_every=1000):
    model.cuda()
    model.train()
    for step, (img, label) in enumerate(loader):
        img, label = img.cuda(), label.cuda()
        loss = F.cross_entropy(model(img), label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        noise = torch.randn(4).cpu().numpy()
        bias = torch.from_numpy(noise * 0.1).cuda()
        img = img + bias.view(1, -1, 1, 1)
        if step % save_every == 0:
            snapshot = img[:4].cpu()
            img = snapshot.cuda()
            model = model.cpu()
            torch.save(model.state_dict(), "last.pt")
            model = model.cuda()


def flipped_preview(images):
    array = images.cpu().numpy()[:, :, ::-1].copy()
    return torch.from_numpy(array).cuda()


class Upscaler(torch.nn.Module):
    def __init__(self, net, method="bicubic"):
        super().__init__()
        self.net = net
        self.method = method

    def forward(self, x):
        if not self.training:
            return self.forward_x8(x)
        if self.method == "lanczos":
            host = x.squeeze(0).cpu().numpy()
            return torch.from_numpy(host.repeat(2, axis=-1).repeat(2, axis=-2)).unsqueeze(0).to(x.device)
        return self.net(x)

    def forward_x8(self, x):
        flipped = x.data.cpu().numpy()[:, :, :, ::-1].copy()
        return self.net(torch.Tensor(flipped).to(x.device))
