import sys

import torch

GPU = sys.argv[-1] if len(sys.argv) == 2 else "3"
device = torch.device(f"cuda:{GPU}") if torch.cuda.is_available() else torch.device("cpu")


def getModel(net):
    return net.to(device)


def trainModel(net, XS, YS, epochs, batch_size, criterion):
    model = getModel(net)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
    XS_torch, YS_torch = torch.Tensor(XS), torch.Tensor(YS)
    trainval_data = torch.utils.data.TensorDataset(XS_torch, YS_torch)
    train_size = int(len(trainval_data) * 0.8)
    train_data = torch.utils.data.Subset(trainval_data, list(range(0, train_size)))
    val_data = torch.utils.data.Subset(trainval_data, list(range(train_size, len(trainval_data))))
    train_iter = torch.utils.data.DataLoader(train_data, batch_size, shuffle=True)  # expect: PP504 medium
    val_iter = torch.utils.data.DataLoader(val_data, batch_size, shuffle=True)
    losses = []
    for _epoch in range(epochs):
        model.train()
        for x, y in train_iter:
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
        model.eval()
        with torch.no_grad():
            for x, y in val_iter:
                losses.append(criterion(model(x), y))
    return torch.stack(losses).min()


def testModel(model, XS, YS, batch_size):
    test_data = torch.utils.data.TensorDataset(torch.Tensor(XS).cuda(), torch.Tensor(YS).cuda())
    test_iter = torch.utils.data.DataLoader(test_data, batch_size, shuffle=False)
    model.eval()
    with torch.no_grad():
        return [model(x) for x, _ in test_iter]
