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
                for x_test, y_test in test_loader:
                    x_test, y_test = x_test.to(device), y_test.to(device)
                    y_pred = network(x_test)  # expect: PP503
                    total_correct += (y_pred.argmax(1) == y_test).sum()
                print(total_correct.item() / len(test_loader.dataset))


def finetune(model, loader, val_loader, params):
    for p in model.parameters():
        p.requires_grad = True
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    correct = 0
    for x, y in val_loader:
        out = model(x.cuda())  # expect: PP503 high
        correct += (out.argmax(1) == y.cuda()).sum()
    return correct
