import torch
from model import Model
from train_util import get_input_from_batch

use_cuda = torch.cuda.is_available()


class BeamSearch:
    def __init__(self, batcher):
        self.batcher = batcher
        self.model = Model()
        if use_cuda:
            self.model = self.model.cuda()

    def beam_search(self, batch):
        enc_batch, c_t_1, coverage = get_input_from_batch(batch, use_cuda)
        with torch.no_grad():
            return self.model.decode(enc_batch, c_t_1, coverage)

    def decode(self, n_articles):
        return [self.beam_search(self.batcher.next_batch()) for _ in range(n_articles)]
