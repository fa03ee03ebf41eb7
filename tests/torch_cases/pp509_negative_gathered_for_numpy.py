"""PP509 negative (torch-fix152): the evaluation hands a helper the rows a model's method returns
(`crf_decode`, defined in another module to return `.cpu().numpy()` rows) and also gathers them for
`np.concatenate`, which fails on CUDA tensors: they are NumPy, so the helper's per-token `bin_pred.item()`
reads nothing from the device (CrossNER and coach)."""

import numpy as np
import torch


class Trainer:
    def __init__(self, binary_ner_tagger, entityname_predictor, y_set):
        self.binary_ner_tagger = binary_ner_tagger
        self.entityname_predictor = entityname_predictor
        self.y_set = y_set

    def evaluate(self, dataloader):
        self.binary_ner_tagger.eval()
        self.entityname_predictor.eval()
        binary_preds, final_preds = [], []
        for X, lengths in dataloader:
            X, lengths = X.cuda(), lengths.cuda()
            with torch.no_grad():
                bin_preds_batch, lstm_hiddens = self.binary_ner_tagger(X, return_hiddens=True)
                bin_preds_batch = self.binary_ner_tagger.crf_decode(bin_preds_batch, lengths)
                binary_preds.extend(bin_preds_batch)
                final_preds_batch = self.combine(bin_preds_batch)
                final_preds.extend(final_preds_batch)
        binary_preds = np.concatenate(binary_preds, axis=0)
        return binary_preds, final_preds

    def combine(self, binary_preds_batch):
        final_preds = []
        for i in range(len(binary_preds_batch)):
            binary_preds = binary_preds_batch[i]
            each = []
            for bin_pred in binary_preds:
                if bin_pred.item() == 0:
                    each.append(0)
                else:
                    each.append(self.y_set.index("B"))
            final_preds.append(each)
        return final_preds
