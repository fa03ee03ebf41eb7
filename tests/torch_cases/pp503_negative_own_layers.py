"""A recognition head whose `forward_test` decodes greedily through its own decoder layers; the trainer's
evaluation (or any caller) decides about no_grad, as for its `forward`. A cross-validation loop that builds a
model with a factory it was handed and moves it to the GPU runs no model."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class TransformerHead(nn.Module):
    def __init__(self, encoder_layers, decoder_layers, d_model, n_classes, max_len=25):
        super().__init__()
        self.encoder = nn.ModuleList(encoder_layers)
        self.decoder = nn.ModuleList(decoder_layers)
        self.embedding = nn.Embedding(n_classes, d_model)
        self.tgt_word_prj = nn.Linear(d_model, n_classes)
        self.max_len = max_len

    def forward(self, src, targets=None):
        if self.training:
            return self.forward_train(src, targets)
        return self.forward_test(src)

    def forward_train(self, src, targets):
        memory = src
        for encoder_layer in self.encoder:
            memory = encoder_layer(memory)
        tgt = self.embedding(targets)
        for decoder_layer in self.decoder:
            tgt = decoder_layer(tgt, memory)
        return self.tgt_word_prj(tgt)

    def forward_test(self, src):
        memory = src
        for encoder_layer in self.encoder:
            memory = encoder_layer(memory)
        dec_seq = torch.full((src.size(0), 1), 2, dtype=torch.int64, device=src.device)
        for _ in range(1, self.max_len):
            tgt = self.embedding(dec_seq)
            for decoder_layer in self.decoder:
                tgt = decoder_layer(tgt, memory)
            word_prob = F.softmax(self.tgt_word_prj(tgt[:, -1, :]), dim=-1)
            _, preds_idx = torch.max(word_prob, dim=-1)
            dec_seq = torch.cat([dec_seq, preds_idx.reshape([-1, 1])], dim=1)
        return dec_seq


def cross_validation(dataset, model_func, folds, device, model_path):
    accs = []
    for fold in folds:
        model = model_func(dataset).to(device)
        model.load_state_dict(torch.load(model_path))
        accs.append(fold)
    return accs
