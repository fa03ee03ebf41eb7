import torch
import torchaudio
from cnn import CNNNetwork
from torch import nn
from torch.utils.data import DataLoader, Dataset
from torchvision import datasets
from torchvision.transforms import ToTensor
from urbansounddataset import UrbanSoundDataset


class CachedSpectrograms(Dataset):
    def __init__(self, paths, device):
        self.paths = paths
        self.device = device

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        return torch.load(self.paths[index]).cuda(), 0


def create_data_loader(train_data, batch_size):
    return DataLoader(train_data, batch_size=batch_size)  # expect: PP504


def train(model, data_loader, loss_fn, optimiser, device, epochs):
    for _ in range(epochs):
        for inputs, targets in data_loader:
            inputs, targets = inputs.to(device), targets.to(device)
            loss = loss_fn(model(inputs), targets)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()


if __name__ == "__main__":
    device = "cuda"
    mel = torchaudio.transforms.MelSpectrogram(sample_rate=22050, n_fft=1024, hop_length=512, n_mels=64)
    usd = UrbanSoundDataset("metadata.csv", "audio", mel, device)
    train_dataloader = create_data_loader(usd, 128)
    cnn = CNNNetwork().to(device)
    optimiser = torch.optim.Adam(cnn.parameters(), lr=0.001)
    train(cnn, train_dataloader, nn.CrossEntropyLoss(), optimiser, device, 10)
    cached_loader = DataLoader(CachedSpectrograms(["a.pt", "b.pt"], device), batch_size=2)  # expect: PP504
    train(cnn, cached_loader, nn.CrossEntropyLoss(), optimiser, device, 10)
    mnist = datasets.MNIST(root="data", train=True, download=True, transform=ToTensor())
    mnist_loader = DataLoader(mnist, batch_size=128)  # expect: PP504 # expect: PP505
    train(cnn, mnist_loader, nn.CrossEntropyLoss(), optimiser, device, 10)
