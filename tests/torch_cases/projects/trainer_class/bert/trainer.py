import torch
import tqdm
from torch.optim import Adam


class BERTTrainer:
    def __init__(self, bert, vocab_size, train_dataloader, test_dataloader=None, with_cuda=True):
        self.device = torch.device("cuda:0" if with_cuda and torch.cuda.is_available() else "cpu")
        self.model = bert.to(self.device)
        self.train_data = train_dataloader
        self.test_data = test_dataloader
        self.optim = Adam(self.model.parameters(), lr=1e-4)
        self.vocab_size = vocab_size

    def train(self, epoch):
        self.iteration(epoch, self.train_data)

    def test(self, epoch):
        self.iteration(epoch, self.test_data, train=False)  # expect: PP503

    def iteration(self, epoch, data_loader, train=True):
        data_iter = tqdm.tqdm(enumerate(data_loader), total=len(data_loader))
        for _, data in data_iter:
            data = {key: value.to(self.device) for key, value in data.items()}
            loss = self.model.forward(data["bert_input"], data["segment_label"]).mean()
            if train:
                self.optim.zero_grad()
                loss.backward()
                self.optim.step()


def summarize(corpus_loader, vocab_size):
    counts = torch.zeros(vocab_size)
    for batch in corpus_loader:
        counts += torch.bincount(batch["bert_input"].flatten(), minlength=vocab_size)
    return counts
