import torch
from tools.train import wrap as make_variable
from torch.utils.data import DataLoader


def pretrain(encoder, classifier, dataset, epochs):
    loader = DataLoader(dataset, batch_size=50, shuffle=True, num_workers=2)  # expect: PP505
    optimizer = torch.optim.Adam(list(encoder.parameters()) + list(classifier.parameters()))
    for _epoch in range(epochs):
        for images, labels in loader:
            images = make_variable(images)
            labels = make_variable(labels.squeeze_())
            loss = torch.nn.functional.cross_entropy(classifier(encoder(images)), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
