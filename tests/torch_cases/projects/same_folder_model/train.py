import torch
from model import Classifier


def train(batches, epochs=10):
    model = Classifier(64, 32).cuda()
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(epochs):
        for inputs, labels in batches:
            inputs, labels = inputs.cuda(), labels.cuda()
            model.zero_grad()
            model.batch_size = len(labels)
            model.hidden = model.init_hidden()
            loss = torch.nn.functional.cross_entropy(model(inputs), labels)
            loss.backward()
            optimizer.step()
