"""Host tensors made in the helpers, forwards and updates a training step runs (torch-fix103): a contrastive
loss's negative mask built by a Python loop of constant writes and moved by its caller (DCL, HCL), a look-ahead
mask from NumPy's `triu` of sizes in every attention layer's `forward` (AKT), a MoCo queue index made in a base
class's method that each subclass's `forward` calls (PyContrast), and TD3's target-smoothing noise drawn with
`torch.normal(..., size=...)` in the update; and a chatbot's start tokens, a comprehension of a number the
script binds once at its top, moved by a line of their own (not a model move for PP507, whatever the name)."""

import numpy as np
import torch
import torch.nn as nn

SOS_token = 1


def get_negative_mask(batch_size):
    negative_mask = torch.ones((batch_size, 2 * batch_size), dtype=bool)
    for i in range(batch_size):
        negative_mask[i, i] = 0
        negative_mask[i, i + batch_size] = 0
    negative_mask = torch.cat((negative_mask, negative_mask), 0)
    return negative_mask


def train(net, data_loader, optimizer, temperature, batch_size):
    for pos_1, pos_2, _target in data_loader:
        pos_1, pos_2 = pos_1.cuda(non_blocking=True), pos_2.cuda(non_blocking=True)
        out = torch.cat([net(pos_1), net(pos_2)], dim=0)
        neg = torch.exp(torch.mm(out, out.t().contiguous()) / temperature)
        mask = get_negative_mask(batch_size).cuda()  # expect: PP506 high
        neg = neg.masked_select(mask).view(2 * batch_size, -1)
        loss = -torch.log(neg.sum(dim=-1)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class TransformerLayer(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, 4, batch_first=True)

    def forward(self, mask, query, key, values):
        seqlen = query.size(1)
        nopeek_mask = np.triu(np.ones((1, 1, seqlen, seqlen)), k=mask).astype("uint8")
        src_mask = (torch.from_numpy(nopeek_mask) == 0).to(query.device)  # expect: PP506 high
        out, _ = self.attn(query, key, values, attn_mask=~src_mask[0, 0])
        return out


class BaseMoCo(nn.Module):
    def __init__(self, K=65536, T=0.07):
        super().__init__()
        self.K = K
        self.T = T
        self.index = 0

    def _update_memory(self, k, queue):
        with torch.no_grad():
            num_neg = k.shape[0]
            out_ids = torch.arange(num_neg).cuda()  # expect: PP506 high
            out_ids = torch.fmod(out_ids + self.index, self.K).long()
            queue.index_copy_(0, out_ids, k)


class RGBMoCo(BaseMoCo):
    def __init__(self, n_dim, K=65536, T=0.07):
        super().__init__(K, T)
        self.register_buffer("memory", torch.randn(K, n_dim))

    def forward(self, q, k):
        logits = torch.mm(q, self.memory.t()) / self.T
        self._update_memory(k, self.memory)
        return logits


class TD3:
    def __init__(self, policy, policy_target, qf, optimizer, device, target_noise=0.2):
        self.policy, self.policy_target, self.qf = policy, policy_target, qf
        self.optimizer, self.device, self.target_noise = optimizer, device, target_noise

    def train_model(self, obs1, obs2, acts, rews):
        pi_target = self.policy_target(obs2)
        noise = torch.normal(mean=0, std=self.target_noise, size=pi_target.size())
        epsilon = noise.to(self.device)  # expect: PP506
        target = rews + self.qf(obs2, pi_target + epsilon).detach()
        loss = (self.qf(obs1, acts) - target).pow(2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


def build(d_model, n_dim):
    return TransformerLayer(d_model), RGBMoCo(n_dim)


def train_chatbot(encoder, decoder, loader, optimizer, device, batch_size):
    for input_variable, target_variable in loader:
        input_variable, target_variable = input_variable.to(device), target_variable.to(device)
        encoder_outputs, encoder_hidden = encoder(input_variable)
        decoder_input = torch.LongTensor([[SOS_token for _ in range(batch_size)]])
        decoder_input = decoder_input.to(device)  # expect: PP506 high
        output, _ = decoder(decoder_input, encoder_hidden, encoder_outputs)
        loss = nn.functional.cross_entropy(output, target_variable[0])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def mk_grid_img(grid_step, line_thickness=1, grid_sz=(160, 192, 224)):
    grid_img = np.zeros(grid_sz)
    for j in range(0, grid_img.shape[1], grid_step):
        grid_img[:, j + line_thickness - 1, :] = 1
    for i in range(0, grid_img.shape[2], grid_step):
        grid_img[:, :, i + line_thickness - 1] = 1
    grid_img = grid_img[None, None, ...]
    grid_img = torch.from_numpy(grid_img).cuda()  # expect: PP506 high
    return grid_img


def validate(model, val_loader, img_size):
    with torch.no_grad():
        for x, y in val_loader:
            x, y = x.cuda(), y.cuda()
            grid_img = mk_grid_img(8, 1, img_size)
            _, flow = model(torch.cat((x, y), dim=1))
            model.spatial_trans(grid_img.float(), flow)
