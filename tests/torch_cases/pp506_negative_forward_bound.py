import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self, vocab, use_gpu):
        super().__init__()
        self.vocab = vocab
        self.use_gpu = use_gpu

    def forward(self, words):
        ids = torch.LongTensor([self.vocab[w] for w in words])
        if self.use_gpu:
            ids = ids.cuda()
        return ids


class Trainer:
    def __init__(self, G, z_dim, gpu_mode):
        self.G, self.z_dim, self.gpu_mode = G, z_dim, gpu_mode

    def visualize_results(self, epoch):
        self.G.eval()
        sample_z = torch.rand((64, self.z_dim))
        if self.gpu_mode:
            sample_z = sample_z.cuda()
        return self.G(sample_z)

    def train(self, loader, optimizer):
        for epoch in range(100):
            for x in loader:
                loss = self.G(x).mean()
                loss.backward()
                optimizer.step()
            self.visualize_results(epoch)


def scaled(model, loader, device, scale):
    for x in loader:
        weights = (torch.from_numpy(x) * scale).to(device)
        loss = model(weights).mean()
        loss.backward()
