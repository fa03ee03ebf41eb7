"""PP509 (torch-fix152): twin of pp509_negative_gathered_for_numpy.py whose evaluation gathers the decoded
rows with `torch.cat`, not NumPy: nothing says they left the device, so the helper's per-token
`bin_pred.item()` is still reported."""

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
        binary_preds = torch.cat(binary_preds, dim=0)
        return binary_preds, final_preds

    def combine(self, binary_preds_batch):
        final_preds = []
        for i in range(len(binary_preds_batch)):
            binary_preds = binary_preds_batch[i]
            each = []
            for bin_pred in binary_preds:
                if bin_pred.item() == 0:  # expect: PP509
                    each.append(0)
                else:
                    each.append(self.y_set.index("B"))
            final_preds.append(each)
        return final_preds
