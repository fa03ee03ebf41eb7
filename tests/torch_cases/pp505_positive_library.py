# a book's helper library (d2lzh's utils.py): one def tokenizes IMDB reviews for its own loader, another
# loads Fashion-MNIST images; only the loader made where the tokenizer is called is lowered
import torch
import torchvision
from torch.utils.data import DataLoader

device = torch.device("cuda")


def train_imdb(net, data, vocab, optimizer):
    def tokenizer(text):
        return [tok.lower() for tok in text.split(" ")]

    features = [vocab(tokenizer(review)) for review, _ in data]
    reviews = torchvision.datasets.wrap_dataset_for_transforms_v2(features)
    train_iter = DataLoader(reviews, 64, shuffle=True, num_workers=4)  # expect: PP505 low
    for X, y in train_iter:
        l_sum = net(X.to(device), y.to(device))
        optimizer.zero_grad()
        l_sum.backward()
        optimizer.step()


def train_fashion_mnist(net, optimizer):
    mnist_train = torchvision.datasets.FashionMNIST(root="~/data", train=True, download=True)
    train_iter = DataLoader(mnist_train, batch_size=256, shuffle=True, num_workers=4)  # expect: PP505 high
    for X, y in train_iter:
        l_sum = net(X.to(device), y.to(device))
        optimizer.zero_grad()
        l_sum.backward()
        optimizer.step()
