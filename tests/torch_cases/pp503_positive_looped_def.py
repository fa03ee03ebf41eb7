import torch.nn.functional as F
from torch.autograd import Variable


class Trainer:
    def __init__(self, model, features, target, optimizer):
        self.model = model
        self.features = features
        self.target = target
        self.optimizer = optimizer

    def score(self, index_set):
        self.model.eval()
        _, pred = self.model(self.features).max(dim=1)  # expect: PP503
        correct = pred[index_set].eq(self.target[index_set]).sum().item()
        return correct / index_set.size(0)

    def do_a_step(self, train_nodes):
        self.model.train()
        self.optimizer.zero_grad()
        loss = F.nll_loss(self.model(self.features)[train_nodes], self.target[train_nodes])
        loss.backward()
        self.optimizer.step()

    def fit(self, epochs, train_nodes, val_nodes):
        for _ in range(epochs):
            self.do_a_step(train_nodes)
            print(self.score(val_nodes))


def predict(model, x_val):
    model.eval()
    x = Variable(x_val, requires_grad=False)
    output = model.forward(x)  # expect: PP503
    return output.data.numpy().argmax(axis=1)


def main(model, loader, test_x, optimizer, epochs):
    for _ in range(epochs):
        model.train()
        for x, y in loader:
            optimizer.zero_grad()
            F.cross_entropy(model(x), y).backward()
            optimizer.step()
        print(predict(model, test_x))
