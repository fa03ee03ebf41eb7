"""A training-step def that steps once more per predicted entity, then returns `.item()`s to its caller's loop
(CrossNER's coach trainer, hold-out 49)."""

import torch
import torch.nn as nn


class CoachTrainer:
    def __init__(self, tagger, predictor):
        self.tagger = tagger
        self.predictor = predictor
        self.optimizer = torch.optim.Adam(list(tagger.parameters()) + list(predictor.parameters()))
        self.loss_fn = nn.CrossEntropyLoss()

    def train_step(self, X, lengths, y_bin, y_final):
        bin_preds, hiddens = self.tagger(X, return_hiddens=True)
        loss_bin = self.tagger.crf_loss(bin_preds, lengths, y_bin)
        self.optimizer.zero_grad()
        loss_bin.backward(retain_graph=True)
        self.optimizer.step()
        preds, golds = self.predictor(hiddens, binary_golds=y_bin, final_golds=y_final)
        for pred, gold in zip(preds, golds, strict=True):
            if pred is not None:
                loss_entityname = self.loss_fn(pred, gold.cuda())
                self.optimizer.zero_grad()
                loss_entityname.backward(retain_graph=True)
                self.optimizer.step()
        return loss_bin.item(), loss_entityname.item()  # expect: PP501
