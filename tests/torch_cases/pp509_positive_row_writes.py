"""Loops over a batch's rows, on every step, that only write elements or rows of a device tensor
(torch-fix48): prompt embeddings written token by token, YOLO-style target assignment per box, per-sample
crops, a per-sample triangle mask. One indexed assignment (or one batched op) writes them all."""

import torch
import torch.nn as nn


class PromptModel(nn.Module):
    def __init__(self, embeddings, prompt_encoder, pseudo_id, spell_length):
        super().__init__()
        self.embeddings = embeddings
        self.prompt_encoder = prompt_encoder
        self.pseudo_id = pseudo_id
        self.spell_length = spell_length

    def forward(self, queries):
        bz = queries.shape[0]
        raw_embeds = self.embeddings(queries)
        blocked = (queries == self.pseudo_id).nonzero().reshape((bz, self.spell_length, 2))[:, :, 1]
        replace_embeds = self.prompt_encoder()
        for bidx in range(bz):
            for i in range(self.spell_length):
                raw_embeds[bidx, blocked[bidx, i], :] = replace_embeds[i, :]  # expect: PP509
        return raw_embeds


class YoloLoss(nn.Module):
    def forward(self, output, best_n, best_mask, truth_i, truth_j, truth_x, n_anchors, fsize):
        batch = output.size(0)
        obj_mask = torch.zeros(batch, n_anchors, fsize, fsize, device=output.device)
        target = torch.zeros(batch, n_anchors, fsize, fsize, 5, device=output.device)
        for b in range(batch):
            for ti in range(best_n.shape[1]):
                if best_mask[b, ti] == 1:
                    i, j = truth_i[b, ti], truth_j[b, ti]
                    a = best_n[b, ti]
                    obj_mask[b, a, j, i] = 1  # expect: PP509
                    target[b, a, j, i, 0] = truth_x[b, ti] - truth_x[b, ti].floor()
        return ((output - target) ** 2 * obj_mask.unsqueeze(-1)).sum()


def compute_loss(decoder, y, offsets, lengths, out_size):
    offsets = offsets.to(y.device)
    y_cut = torch.zeros(y.shape[0], y.shape[1], out_size, dtype=y.dtype, device=y.device)
    cut_lengths = []
    for i, (y_, offset_) in enumerate(zip(y, offsets, strict=False)):
        cut_length = out_size + (lengths[i] - out_size).clamp(None, 0)
        cut_lengths.append(cut_length)
        y_cut[i, :, :cut_length] = y_[:, offset_ : offset_ + cut_length]  # expect: PP509
    return decoder(y_cut).mean()


def evaluate(model, loader, device):
    spans = []
    with torch.no_grad():
        for context, question in loader:
            p1, p2 = model(context.to(device), question.to(device))
            outer = torch.matmul(p1.softmax(1).unsqueeze(2), p2.softmax(1).unsqueeze(1))
            for j in range(outer.size()[0]):
                outer[j] = torch.triu(outer[j])  # expect: PP509
            spans.append(outer.flatten(1).argmax(1))
    return spans
