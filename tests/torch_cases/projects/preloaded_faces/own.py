import pickle

import torch
import torchvision.transforms as transforms
from PIL import Image


class Glyphs(torch.utils.data.Dataset):
    def __init__(self, path, transform=None):
        with open(path, "rb") as f:
            self.images, self.labels = pickle.load(f)
        self.transform = transform

    def __getitem__(self, i):
        img = self.transform(Image.fromarray(self.images[i]))
        return img, self.labels[i]

    def __len__(self):
        return len(self.labels)


def fit(model, optimizer, criterion, epochs=20):
    glyphs = Glyphs("glyphs.pkl", transform=transforms.ToTensor())
    loader = torch.utils.data.DataLoader(glyphs, batch_size=64)  # expect: PP504  # expect: PP505
    model.cuda()
    for _ in range(epochs):
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()
