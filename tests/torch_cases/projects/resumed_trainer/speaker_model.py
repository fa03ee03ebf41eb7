import torch
import torch.nn as nn


class SpeakerModel(nn.Module):
    def __init__(self, encoder, classifier, lr):
        super().__init__()
        self.encoder = encoder.cuda()
        self.classifier = classifier.cuda()
        self.optim = torch.optim.Adam(self.parameters(), lr=lr)

    def train_network(self, epoch, loader):
        self.train()
        total = 0.0
        for data, labels in loader:
            self.zero_grad()
            labels = torch.LongTensor(labels).cuda()
            loss = self.classifier(self.encoder(data.cuda()), labels)
            loss.backward()
            self.optim.step()
            total += loss.detach()
        return total

    def load_parameters(self, path):
        self.load_state_dict(torch.load(path))
