"""Clean twins of pp506_positive_step_helpers.py (torch-fix103): a mask whose loop writes each row's own label
(host data worked out from the batch, not a pattern of sizes), a NumPy triangle of the batch's values, a base
class's method no `forward` calls (run once, at set-up), and `torch.normal` of device tensors, which draws where
they are; start tokens of a module name the script binds again (a value that changes)."""

import numpy as np
import torch
import torch.nn as nn

start_token = 1


def label_mask(labels, n_classes):
    mask = torch.zeros((len(labels), n_classes), dtype=bool)
    for i in range(len(labels)):
        mask[i, labels[i]] = 1
    return mask


def train(net, data_loader, optimizer, n_classes):
    for x, y in data_loader:
        x = x.cuda(non_blocking=True)
        out = net(x)
        mask = label_mask(y.tolist(), n_classes).cuda()
        loss = -out.masked_select(mask).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class TransformerLayer(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, 4, batch_first=True)

    def forward(self, query, scores):
        weights = np.triu(scores.detach().cpu().numpy())  # expect: PP501
        bias = torch.from_numpy(weights).to(query.device)
        out, _ = self.attn(query, query, query)
        return out + bias.sum()


class BaseMemory(nn.Module):
    def __init__(self, K=65536):
        super().__init__()
        self.K = K

    def reset_ids(self):
        return torch.arange(self.K).cuda()


class Memory(BaseMemory):
    def __init__(self, n_dim, K=65536):
        super().__init__(K)
        self.register_buffer("memory", torch.randn(K, n_dim))
        self.ids = self.reset_ids()

    def forward(self, q):
        return torch.mm(q, self.memory.t())


class TD3:
    def __init__(self, policy_target, qf, optimizer, noise_std):
        self.policy_target, self.qf, self.optimizer, self.noise_std = policy_target, qf, optimizer, noise_std

    def train_model(self, obs1, obs2, acts, rews):
        pi_target = self.policy_target(obs2)
        epsilon = torch.normal(torch.zeros_like(pi_target), self.noise_std * torch.ones_like(pi_target))
        target = rews + self.qf(obs2, pi_target + epsilon).detach()
        loss = (self.qf(obs1, acts) - target).pow(2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


def build(d_model, n_dim):
    return TransformerLayer(d_model), Memory(n_dim)


def set_start(token):
    global start_token
    start_token = token


def train_chatbot(encoder, decoder, loader, optimizer, device, batch_size):
    for input_variable, target_variable in loader:
        input_variable, target_variable = input_variable.to(device), target_variable.to(device)
        encoder_outputs, encoder_hidden = encoder(input_variable)
        decoder_input = torch.LongTensor([[start_token for _ in range(batch_size)]])
        decoder_input = decoder_input.to(device)
        output, _ = decoder(decoder_input, encoder_hidden, encoder_outputs)
        loss = nn.functional.cross_entropy(output, target_variable[0])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def mk_seg_img(labels, grid_sz=(160, 192, 224)):
    seg_img = np.zeros(grid_sz)
    for j in range(0, seg_img.shape[1]):
        seg_img[:, j, :] = labels[j]
    return torch.from_numpy(seg_img[None, None, ...]).cuda()


def validate(model, val_loader, labels):
    with torch.no_grad():
        for x, y in val_loader:
            x, y = x.cuda(), y.cuda()
            seg_img = mk_seg_img(labels)
            _, flow = model(torch.cat((x, y), dim=1))
            model.spatial_trans(seg_img.float(), flow)
