# torch-fix148 negatives: rows of data read in (a loader's work), a transpose of a weight, `torch.normal` of
# tensors (drawn where they are), a comprehension of data and a loader's batch read back and rebuilt.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda")


class SequenceReader(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(8, 8)

    def forward(self, x, table):
        rows = torch.from_numpy(np.asarray(table))
        outs = []
        for t in range(x.size(1)):
            outs.append(self.cell(x[:, t] + rows[t].to(x.device)))
        return outs


class TiedDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 8)

    def forward(self, h):
        weight = self.embed.weight.T
        return h @ weight.to(h.device)


def train(model, loader, optimizer):
    for batch, labels in loader:
        mean = torch.zeros(batch.size(0), 8, device=device)
        noise = torch.normal(mean, torch.ones_like(mean))
        rows = torch.stack([torch.from_numpy(np.asarray(s)) for s in batch]).to(device)
        label = labels.cpu().numpy()
        label = np.where(label == 4, 1, label)
        target = torch.from_numpy(label).to(device)
        loss = F.cross_entropy(model(rows) + noise, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class Memory(nn.Module):
    # the attribute is replaced outside `__init__`: what is converted changes between calls
    def __init__(self, bank):
        super().__init__()
        self.bank = bank
        self.proj = nn.Linear(8, 8)

    def update(self, rows):
        self.bank = rows

    def forward(self, feats):
        bank = torch.FloatTensor(self.bank).cuda()
        return torch.matmul(self.proj(feats), bank)


class KoopmanOperator(nn.Module):
    # Koopa: the identity replaces the solved operator only when the solve gave NaN
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x, y):
        b = x.shape[0]
        self.K = torch.linalg.lstsq(x, y).solution
        if torch.isnan(self.K).any():  # expect: PP501 medium (the per-forward read, torch-fix147)
            self.K = torch.eye(self.K.shape[1]).to(self.K.device).unsqueeze(0).repeat(b, 1, 1)
        return torch.bmm(self.proj(x), self.K)


def batchify_with_label(input_batch_list, gpu):
    # NCRF++: a batch's ids and length masks padded on the host from the rows the loop walks (a loader's work)
    words = [sent[0] for sent in input_batch_list]
    masks = [sent[1] for sent in input_batch_list]
    word_seq_lengths = torch.LongTensor(list(map(len, words)))
    max_seq_len = int(word_seq_lengths.max())
    word_seq_tensor = torch.zeros((len(words), max_seq_len)).long()
    gaz_mask_tensor = torch.ones((len(words), max_seq_len)).byte()
    mask = torch.zeros((len(words), max_seq_len)).byte()
    for idx, (seq, gazmask, seqlen) in enumerate(zip(words, masks, word_seq_lengths, strict=True)):
        word_seq_tensor[idx, :seqlen] = torch.LongTensor(seq)
        gaz_mask_tensor[idx, :seqlen] = torch.ByteTensor(gazmask)
        mask[idx, :seqlen] = torch.Tensor([1] * int(seqlen))
    if gpu:
        word_seq_tensor = word_seq_tensor.cuda()
        gaz_mask_tensor = gaz_mask_tensor.cuda()
        mask = mask.cuda()
    return word_seq_tensor, gaz_mask_tensor, mask


def train_tagger(model, data, optimizer, gpu):
    for start in range(0, len(data), 10):
        words, gaz, mask = batchify_with_label(data[start : start + 10], gpu)
        loss = model(words, gaz, mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class RolloutBuffer(nn.Module):
    # deep_rl's buffer: rows written in by `store`, converted and moved by `forward` (data, not a constant)
    def __init__(self, size, obs_dim):
        super().__init__()
        self.obs_buf = np.zeros([size, obs_dim], dtype=np.float32)
        self.ptr = 0

    def store(self, obs):
        self.obs_buf[self.ptr] = obs
        self.ptr += 1

    def forward(self):
        return torch.Tensor(self.obs_buf).to(device)


@torch.no_grad()
def evaluate(model, loader, step_size):
    # incremental-learning's evaluator: the output read back, changed row by row on the host, copied back
    for data, target in loader:
        output = model(data.cuda())
        output_temp = output.data.cpu().numpy()
        target_temp = target.numpy()
        for a in range(len(target_temp)):
            output_temp[a, int(target_temp[a]) * step_size] += 20
        output = torch.from_numpy(output_temp)
        output = output.cuda()
        print(output.max(1)[1])
