"""The same batch maker written without volatile inputs."""

import torch
from torch.autograd import Variable


class DataLoader:
    def __init__(self, sents, labels, batch_size=64, evaluation=False):
        self.sents, self.labels = sents, labels
        self.batch_size, self.evaluation = batch_size, evaluation
        self.sents_size = len(sents)

    def get_batch(self, i):
        x = torch.LongTensor(self.sents[i : i + self.batch_size])
        y = torch.LongTensor(self.labels[i : i + self.batch_size])
        return Variable(x, requires_grad=False), Variable(y, requires_grad=False)

    def __iter__(self):
        for i in range(0, self.sents_size, self.batch_size):
            yield self.get_batch(i)
