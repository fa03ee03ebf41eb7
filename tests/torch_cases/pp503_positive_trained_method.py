import torch


class Trainer:
    def __init__(self, model, train_loader, valid_loader, device):
        self.model = model.to(device)
        self.train_loader = train_loader
        self.valid_loader = valid_loader
        self.device = device
        self.optim = torch.optim.Adam(self.model.parameters(), lr=1e-3)

    def train(self, epoch):
        return self.run_epoch(epoch, self.train_loader, training=True)

    def valid(self, epoch):
        return self.run_epoch(epoch, self.valid_loader, training=False)

    def run_epoch(self, epoch, loader, training=True):
        raise NotImplementedError


class SequenceTrainer(Trainer):
    def run_epoch(self, epoch, loader, training=True):
        if training:
            self.model.train()
            for batch in loader:
                seqs, targets = (t.to(self.device) for t in batch)
                hidden = self.model.seq_net(seqs)
                loss = torch.nn.functional.cross_entropy(hidden[:, -1, :], targets)
                self.optim.zero_grad()
                loss.backward()
                self.optim.step()
        else:
            self.model.eval()
            ranks = []
            for batch in loader:
                seqs, targets = (t.to(self.device) for t in batch)
                hidden = self.model.seq_net(seqs)  # expect: PP503 high
                scores = hidden[:, -1, :]
                ranks.append((scores > scores.gather(1, targets[:, None])).sum(1))
            return torch.cat(ranks)
