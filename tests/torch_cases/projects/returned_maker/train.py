import torch
import torch.nn.functional as F
from utils.tools import get_data


def train(config, net, optimizer):
    device = torch.device("cuda")
    train_loader, test_loader, num_train = get_data(config)
    net = net.to(device)
    for _epoch in range(config["epochs"]):
        for image, label in train_loader:
            image = image.to(device)
            label = label.to(device)
            optimizer.zero_grad()
            loss = F.cross_entropy(net(image), label)
            loss.backward()
            optimizer.step()
