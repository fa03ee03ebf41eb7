import torchvision.transforms as transforms
from faces import FaceFiles, FaceSet
from torch.utils.data import DataLoader

augment = transforms.Compose([transforms.RandomCrop(44), transforms.ToTensor()])
train_set = FaceSet(split="train", transform=augment)
train_loader = DataLoader(train_set, batch_size=128, shuffle=True, num_workers=1)  # expect: PP505
file_set = FaceFiles("train.txt", transform=augment)
file_loader = DataLoader(file_set, batch_size=128, shuffle=True, num_workers=1)  # expect: PP505


def train(model, optimizer, criterion, loader, epochs=50):
    model.cuda()
    for _ in range(epochs):
        for inputs, targets in loader:
            inputs, targets = inputs.cuda(), targets.cuda()
            optimizer.zero_grad()
            criterion(model(inputs), targets).backward()
            optimizer.step()


def main(model, optimizer, criterion):
    train(model, optimizer, criterion, train_loader)
    train(model, optimizer, criterion, file_loader)
