# a domain-adaptation script (pytorch-DANN's shape, maintainer-fixed): the SGD optimizer is built again on
# every batch of the zipped source and target loaders, in the loop that steps it, so its momentum starts
# from zero on every step
import torch
import torch.optim as optim
from torch import nn


def source_only(encoder, classifier, source_loader, target_loader, epochs):
    criterion = nn.CrossEntropyLoss().cuda()
    for _epoch in range(epochs):
        for _i, (source, _target) in enumerate(zip(source_loader, target_loader, strict=False)):
            image, label = source
            image, label = image.cuda(), label.cuda()
            optimizer = optim.SGD(  # expect: PP507
                list(encoder.parameters()) + list(classifier.parameters()), lr=0.01, momentum=0.9
            )
            optimizer.zero_grad()
            loss = criterion(classifier(encoder(image)), label)
            loss.backward()
            optimizer.step()


class Trainer:
    def fit(self, model):
        for batch in self.train_loader:
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)  # expect: PP507
            optimizer.zero_grad()
            model(batch).mean().backward()
            optimizer.step()
