# torch-fix148 (hold-outs 48 and 49): host tensors reached through a transpose, the rows a time-step loop picks,
# a comprehension of draws, a one-hot of a host draw and a round trip through names.
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda")


class SpaceTimeTransformer(nn.Module):
    # TianChi's STTransformer: the causal mask transposed, then moved, on every forward
    def __init__(self, configs):
        super().__init__()
        self.configs = configs
        self.proj = nn.Linear(8, 8)

    def forward(self, src, tgt):
        tgt_mask = self.generate_square_subsequent_mask(tgt.size(1))
        return self.proj(src), tgt_mask

    def generate_square_subsequent_mask(self, sz: int):
        mask = (torch.triu(torch.ones(sz, sz)) == 0).T
        return mask.to(self.configs.device)  # expect: PP506 high


class Forecaster(nn.Module):
    # TianChi's SAConvLSTM: a teacher-forcing mask drawn on the host, a slice moved at every time step
    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(8, 8)

    def forward(self, input_x, ratio, steps, train=True):
        if train:
            teacher_forcing_mask = torch.bernoulli(ratio * torch.ones(input_x.size(0), steps, 1))
        outputs = [None] * steps
        for t in range(steps):
            if t == 0:
                input_ = input_x[:, t].to(device)
            else:
                mask = teacher_forcing_mask[:, t].float().to(device)  # expect: PP506 medium
                input_ = input_x[:, t].to(device) * mask + outputs[t - 1] * (1 - mask)
            outputs[t] = self.cell(input_)
        return outputs


class NoisyDiscriminator(nn.Module):
    # SimpleNet: a one-hot of host indices and noise drawn per level in a comprehension, moved every step
    def __init__(self, mix_noise, noise_std):
        super().__init__()
        self.mix_noise = mix_noise
        self.noise_std = noise_std
        self.proj = nn.Linear(8, 8)
        self.device = torch.device("cuda")

    def train_discriminator(self, loader, opt):
        for data_item in loader:
            img = data_item["image"].to(self.device)
            true_feats = self.proj(img)
            noise_idxs = torch.randint(0, self.mix_noise, torch.Size([true_feats.shape[0]]))
            one_hot = F.one_hot(noise_idxs, num_classes=self.mix_noise).to(self.device)  # expect: PP506 high
            noise = torch.stack(  # expect: PP506 high
                [torch.normal(0, self.noise_std * 1.1**k, true_feats.shape) for k in range(self.mix_noise)],
                dim=1,
            ).to(self.device)
            noise = (noise * one_hot.unsqueeze(-1)).sum(1)
            loss = self.proj(true_feats + noise).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()


def train_pruned(model, loader, optimizer, epochs):
    # Deep Compression: each gradient read to the host, masked with NumPy and copied back, every step
    for _ in range(epochs):
        for data, target in loader:
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            loss = F.nll_loss(model(data), target)
            loss.backward()
            for name, p in model.named_parameters():
                if "mask" in name:
                    continue
                weights = p.data.cpu().numpy()
                grad_tensor = p.grad.data.cpu().numpy()  # expect: PP501
                grad_tensor = np.where(weights == 0, 0, grad_tensor)
                p.grad.data = torch.from_numpy(grad_tensor).to(device)  # expect: PP506 low
            optimizer.step()


def load_entity_embedding(path):
    return np.load(path)


class EntityPredictor(nn.Module):
    # CrossNER: a NumPy attribute converted and copied for every sample of every forward
    def __init__(self, params):
        super().__init__()
        self.entity_embs = load_entity_embedding(params.emb_file)
        self.proj = nn.Linear(8, 8)

    def forward(self, feats):
        preds = []
        for i in range(feats.size(0)):
            entity_embs = torch.FloatTensor(self.entity_embs).transpose(0, 1).cuda()  # expect: PP506 medium
            preds.append(torch.matmul(self.proj(feats[i]), entity_embs))
        return preds


def benchmark(model):
    # EfficientAD's benchmark.py: a timing loop copies a random image on purpose, so `low`
    times = []
    with torch.no_grad():
        for _ in range(2000):
            image = torch.randn(1, 3, 64, 64)
            start = time.time()
            image = image.cuda()  # expect: PP506 low
            model(image)
            times.append(time.time() - start)
    return times
