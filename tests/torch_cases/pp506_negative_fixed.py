# torch-fix17 near misses: host data that changes every step (`torch.from_numpy(labels)`), a helper called
# once for a sample grid, `.type_as` outside the loop, a mask made with device=, one-hot made on the device
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable


class STN3d(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc3 = nn.Linear(256, 9)
        self.register_buffer("iden", torch.from_numpy(np.eye(3).flatten().astype(np.float32)).view(1, 9))

    def forward(self, x):
        x = self.fc3(x)
        return (x + self.iden).view(-1, 3, 3)


class Decoder(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.device = device
        self.proj = nn.Linear(512, 512)

    def make_trg_mask(self, trg):
        n = trg.shape[1]
        return torch.tril(torch.ones(n, n, device=trg.device)).bool()

    def forward(self, trg, memory):
        return self.proj(memory) * self.make_trg_mask(trg).unsqueeze(-1)

    def greedy(self, encoder_outputs, maxlen):
        ys = torch.ones(1, 1).type_as(encoder_outputs).long()
        for _i in range(maxlen):
            scores = self.proj(encoder_outputs)
            ys = torch.cat([ys, scores[:, -1:].argmax(-1)], dim=1)
        return ys


def sample_grid(generator, n_classes):
    labels = np.array([i for i in range(n_classes) for _ in range(n_classes)])
    onehot = torch.eye(n_classes)[labels]
    return generator(onehot.cuda())


def train(classifier, generator, loader, optimizer, n_epochs):
    for _epoch in range(n_epochs):
        for points, labels in loader:
            points = points.cuda()
            target = torch.from_numpy(np.asarray(labels)).long().cuda()
            onehot = F.one_hot(target, 16).float()
            loss = F.nll_loss(classifier(points, onehot), target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        sample_grid(generator, 10)


class Protonet(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def loss(self, sample):
        xq = sample["xq"]
        n_class, n_query = xq.size(0), xq.size(1)
        target_inds = (
            torch.arange(0, n_class, device=xq.device).view(n_class, 1, 1).expand(n_class, n_query, 1)
        )
        log_p_y = F.log_softmax(self.encoder(xq), dim=-1)
        return -log_p_y.gather(2, target_inds).mean()

    @torch.no_grad()
    def evaluate_loss(self, loader):
        total = torch.zeros(1).cuda()
        for sample in loader:
            total += self.loss(sample).detach()
        return total


ALL_CHARACTERS = "abcdefghijklmnopqrstuvwxyz"


def char_tensor(string):
    tensor = torch.zeros(len(string)).long()
    for c in range(len(string)):
        tensor[c] = ALL_CHARACTERS.index(string[c])
    return Variable(tensor).cuda()


def train_char_rnn(model, optimizer, chunks):
    for chunk in chunks:
        total = char_tensor(chunk)
        loss = F.cross_entropy(model(total[:-1]), total[1:])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def sample_audio(model, initial_value, device):
    initial_input = torch.zeros(1, 1, 1).fill_(initial_value)
    initial_input = initial_input.to(device)
    with torch.no_grad():
        return model.incremental_forward(initial_input)


def train_vocoder(model, optimizer, loader, device):
    for step, (x, y) in enumerate(loader):
        loss = F.mse_loss(model(x.to(device)), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 1000 == 0:
            sample_audio(model, 0.0, device)
