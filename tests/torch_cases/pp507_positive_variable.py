import torch
from torch.autograd import Variable


def train(cnn, train_loader, loss_func, epochs):
    optimizer = torch.optim.Adam(cnn.parameters(), lr=0.0002)
    for _ in range(epochs):
        for j, [image, label] in enumerate(train_loader):
            image = Variable(image).cuda()  # wrapping the batch is no per-run set-up (not a sweep)
            label = Variable(label).cuda()
            cnn.cuda()  # expect: PP507
            optimizer.zero_grad()
            loss = loss_func(cnn.forward(image), label)
            loss.backward()
            optimizer.step()
            if j % 100 == 0:
                print(loss)
