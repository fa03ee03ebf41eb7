"""The evaluator family without no_grad in the base class: the derived class's loop records a graph for
every batch."""

import torch


class Evaluator:
    def __init__(self, trainer, data, params):
        self.trainer = trainer
        self.data = data
        self.params = params

    def run_all_evals(self):
        scores = {}
        for data_set in ["valid", "test"]:
            for lang1, lang2 in self.params.mt_steps:
                self.evaluate_mt(scores, data_set, lang1, lang2)
        return scores


class EncDecEvaluator(Evaluator):
    def __init__(self, trainer, data, params):
        super().__init__(trainer, data, params)
        self.encoder = trainer.encoder
        self.decoder = trainer.decoder

    def evaluate_mt(self, scores, data_set, lang1, lang2):
        self.encoder.eval()
        self.decoder.eval()
        n_words = 0
        for x1, len1, x2, len2 in self.data[data_set][(lang1, lang2)]:
            x1, x2 = x1.cuda(), x2.cuda()
            enc1 = self.encoder("fwd", x=x1, lengths=len1)  # expect: PP503 high
            dec2 = self.decoder("fwd", x=x2, lengths=len2, src_enc=enc1)
            n_words += dec2.size(0)
        scores[f"{data_set}_{lang1}-{lang2}_mt_words"] = n_words
        return torch.tensor(n_words)
