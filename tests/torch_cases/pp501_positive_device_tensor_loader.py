import dataloader  # the project's own module: `data_transform` builds tensors on the device it is handed
import torch
import torch.utils.data as data


def prepare(train, device):
    x_train, y_train = dataloader.data_transform(train, 12, 3, device)
    train_set = data.TensorDataset(x_train, y_train)
    return data.DataLoader(dataset=train_set, batch_size=32, shuffle=False)


def train(model, loss, optimizer, train_iter, epochs):
    for _ in range(epochs):
        l_sum = 0.0
        for x, y in train_iter:
            optimizer.zero_grad()
            err = loss(model(x), y)
            err.backward()
            optimizer.step()
            l_sum += err.item()  # expect: PP501
        print(l_sum)


if __name__ == "__main__":
    device = torch.device("cuda")
    train_iter = prepare(torch.load("train.pt"), device)
    train(torch.load("model.pt"), torch.nn.MSELoss(), None, train_iter, 10)
