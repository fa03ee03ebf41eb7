import torch
from data.loaders import make_loader, make_paired_loaders
from torch import nn, optim
from translation import fit_translator


def train_classifier(args):
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 64 * 64, 10)).cuda()
    optimizer = optim.SGD(model.parameters(), lr=args.lr)
    train_loader = make_loader(args.root, "train", args.batch_size)
    for epoch in range(args.epochs):
        for images, labels in train_loader:
            images, labels = images.cuda(), labels.cuda()
            loss = nn.functional.cross_entropy(model(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        torch.save(model.state_dict(), f"classifier_{epoch}.pt")


def train_translator(args, generator):
    optimizer = optim.Adam(generator.parameters(), lr=2e-4)
    photos, paintings = make_paired_loaders(args.root, args.batch_size)
    fit_translator(generator, optimizer, photos, paintings, args.epochs)
