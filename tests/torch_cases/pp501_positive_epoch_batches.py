# a loop named for epochs that draws a mini-batch every pass (`get_batch`) steps once per batch: its reads
# are per step
import torch
import torch.nn as nn

device = torch.device("cuda")
model = nn.Linear(512, 10).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.load("train.pt")


def get_batch(split):
    ix = torch.randint(len(data), (64,))
    return data[ix, :-1].float().to(device), data[ix, -1].long().to(device)


for epoch in range(5000):
    xb, yb = get_batch("train")
    loss = criterion(model(xb), yb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(epoch, loss.item())  # expect: PP501
