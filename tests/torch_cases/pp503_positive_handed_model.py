"""A sequence labeller's predictor: `output_batch` puts the model in eval mode and hands it, batch by
batch, to `apply_model`, which each subclass overrides with the model's forward."""

import torch


class Predictor:
    def __init__(self, if_cuda, batch_size=50):
        self.if_cuda = if_cuda
        self.batch_size = batch_size

    def output_batch(self, ner_model, documents, fout):
        ner_model.eval()
        for features in documents:
            for ind in range(0, len(features), self.batch_size):
                batch = features[ind : ind + self.batch_size]
                labels = self.apply_model(ner_model, batch)  # expect: PP503 high
                for label in torch.unbind(labels, 1):
                    fout.write(" ".join(map(str, label.tolist())) + "\n")

    def apply_model(self, ner_model, features):
        """Template: each model kind overrides it."""
        return None


class WordPredictor(Predictor):
    def apply_model(self, ner_model, features):
        words = torch.LongTensor(features).transpose(0, 1)
        if self.if_cuda:
            words = words.cuda()
        scores, _ = ner_model(words)
        return scores.argmax(-1).cpu()
