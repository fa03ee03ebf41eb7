import torch
import torch.nn.functional as F
from data.cifar import Cifar


def main(args, model):
    device = torch.device("cuda")
    dataset = Cifar(args.batch_size, args.threads)
    model = model.to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(args.epochs):
        model.train()
        for batch in dataset.train:
            inputs, targets = (b.to(device) for b in batch)
            loss = F.cross_entropy(model(inputs), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        # the test loader is only counted, never copied to the GPU
        print(epoch, len(dataset.test), loss.item())
