import torch
import torch.nn as nn
from torch.autograd import Variable

device = torch.device("cuda")


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, src, trg):
        outputs = torch.zeros(trg.shape[0], trg.shape[1], self.decoder.output_dim).to(device)  # expect: PP506 high  # fmt: skip
        hidden = self.encoder(src)
        for t in range(1, trg.shape[0]):
            outputs[t], hidden = self.decoder(trg[t - 1], hidden)
        return outputs


def train_gan(G, D, loader, optimizer_d, criterion, z_dim=100):
    for images, _ in loader:
        real = Variable(images).cuda()
        real_label = Variable(torch.ones(images.size(0))).cuda()  # expect: PP506 high
        z = torch.randn(images.size(0), z_dim).float().to(device)  # expect: PP506 high
        weights = torch.tensor([0.2, 0.8]).to(device)  # expect: PP506 high
        loss = criterion(D(real), real_label) + criterion(D(G(z)), 1 - real_label) * weights[0]
        loss.backward()
        optimizer_d.step()


CLASS_COUNTS = [120, 30, 50]
class_weights = [1.0 / c for c in CLASS_COUNTS]


def train_weighted(model, loader, optimizer):
    for x, y in loader:
        weights = torch.tensor(class_weights).to(device)  # expect: PP506 high
        loss = nn.functional.cross_entropy(model(x.to(device)), y.to(device), weight=weights)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
