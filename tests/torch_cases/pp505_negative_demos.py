import numpy as np
import torch
from torch.utils.data import DataLoader

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


def show_batches(train_dataset):
    # a tutorial on custom datasets: iterate to show the batches, train nothing
    train_loader = DataLoader(dataset=train_dataset, batch_size=128, shuffle=True, num_workers=4)
    for epoch in range(2):
        for batch_idx, (x, y) in enumerate(train_loader):
            print("Epoch:", epoch + 1, "| Batch index:", batch_idx, "| Batch size:", y.size()[0])
            x = x.to(device)
            y = y.to(device)


def predict_a_few(model, test_dataset):
    test_loader = DataLoader(dataset=test_dataset, batch_size=64, shuffle=True, num_workers=4)
    for features, _ in test_loader:  # noqa: B007 (the batch is used after the loop)
        break
    return model(features[:8].to(device))


def pixel_statistics(image_dataset):
    stats_loader = DataLoader(dataset=image_dataset, batch_size=5000, shuffle=False, num_workers=4)
    means = []
    for images, _ in stats_loader:
        means.append(np.mean(images.numpy(), axis=(0, 2, 3)))
    return means


def reconstruct_one_batch(model, train_loader):
    model.eval()
    for features in train_loader:  # one batch to plot: no loop cost
        features = features.to(device)
        decoded = model(features)
        break
    return decoded
