from tools.train import *  # noqa: F403
from torch.utils.data import DataLoader


def main(dataset, model, optimizer, iterations, device):
    model.to(device)
    train_iterator = iter(DataLoader(dataset, batch_size=16, shuffle=True, num_workers=4))  # expect: PP505

    def train(it):
        model.train()
        batch = recursive_to(next(train_iterator), device)  # noqa: F405
        loss = model(batch).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    for it in range(iterations):
        train(it)
