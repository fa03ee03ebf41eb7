# torch-fix94: a training-step def whose backward and step run under its `train=True` flag builds the decoder's
# start tokens on the CPU as a constant fill of a settings value, then moves them on the next line
import config
import torch
import torch.nn as nn


class Seq2Seq(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim)
        self.decoder = nn.GRU(dim, dim, batch_first=True)
        self.generator = nn.Linear(dim, vocab)
        self.criterion = nn.CrossEntropyLoss(ignore_index=config.PAD_idx)
        self.optimizer = torch.optim.Adam(self.parameters(), lr=config.lr)

    def train_one_batch(self, batch, train=True):
        dec_batch = batch["target"]
        self.optimizer.zero_grad()
        sos_token = torch.LongTensor([config.SOS_idx] * dec_batch.size(0)).unsqueeze(1)
        if config.USE_CUDA:
            sos_token = sos_token.cuda()  # expect: PP506 high
        dec_batch_shift = torch.cat((sos_token, dec_batch[:, :-1]), 1)
        out, _ = self.decoder(self.embedding(dec_batch_shift))
        logit = self.generator(out)
        loss = self.criterion(logit.view(-1, logit.size(-1)), dec_batch.contiguous().view(-1))
        if train:
            loss.backward()
            self.optimizer.step()
        return loss


def train(loader, vocab):
    model = Seq2Seq(vocab, 256).cuda()
    for batch in loader:
        model.train_one_batch(batch)
