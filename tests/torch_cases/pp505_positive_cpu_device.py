"""Linear evaluation on frozen features, with the device a GPU when there is one: the
batches are copied to it from pageable memory."""

import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

device = "cuda" if torch.cuda.is_available() else "cpu"

train_set = datasets.STL10("./data", split="train", download=True, transform=transforms.ToTensor())
train_loader = DataLoader(train_set, batch_size=512, num_workers=4, shuffle=True)  # expect: PP505 high

encoder = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 96 * 96, 512)).to(device)
logreg = torch.nn.Linear(512, 10).to(device)
optimizer = torch.optim.Adam(logreg.parameters(), lr=3e-4)
criterion = torch.nn.CrossEntropyLoss()

for _ in range(200):
    for x, y in train_loader:
        x = x.to(device)
        y = y.to(device)
        optimizer.zero_grad()
        with torch.no_grad():
            features = encoder(x)
        loss = criterion(logreg(features), y)
        loss.backward()
        optimizer.step()
