import torch
import torch.nn as nn

device = torch.device("cuda:0")
network = nn.Sequential(nn.Flatten(), nn.Linear(784, 10)).to(device)
optimizer = torch.optim.Adam(network.parameters(), lr=1e-3)
criteon = nn.CrossEntropyLoss().to(device)


def train(train_loader, test_loader, epochs):
    for _epoch in range(epochs):
        for step, (x, y) in enumerate(train_loader):
            x, y = x.to(device), y.to(device)
            loss = criteon(network(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if step % 100 == 0:
                total_correct = 0
                with torch.no_grad():
                    for x_test, y_test in test_loader:
                        x_test, y_test = x_test.to(device), y_test.to(device)
                        y_pred = network(x_test)
                        total_correct += (y_pred.argmax(1) == y_test).sum()
                print(total_correct.item() / len(test_loader.dataset))


def train_on_both(train_loader, val_loader, epochs):
    # the inner loop over the validation split trains too (fine-tuning on it): gradients are needed
    for _epoch in range(epochs):
        for x, y in train_loader:
            loss = criteon(network(x.to(device)), y.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            for xv, yv in val_loader:
                extra = criteon(network(xv.to(device)), yv.to(device))
                optimizer.zero_grad()
                extra.backward()
                optimizer.step()


def train_chunks(train_loader, chunks, epochs):
    # an inner loop over pieces of the training batch, not over an evaluation split
    for _epoch in range(epochs):
        for x, y in train_loader:
            optimizer.zero_grad()
            for xc, yc in zip(x.chunk(chunks), y.chunk(chunks), strict=True):
                out = network(xc.to(device))
                criteon(out, yc.to(device)).backward()
            optimizer.step()
