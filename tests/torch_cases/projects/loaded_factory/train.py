import pickle

import torch
from torch.utils.data import DataLoader, RandomSampler
from torchvision import datasets, transforms
from utils import fit, train

from data import BertProcessor, NLIDataset


def main_nli(train_file, model, optimizer, criterion, epochs, batch_size=32):
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    with open(train_file, "rb") as pkl:
        train_data = NLIDataset(pickle.load(pkl))
    train_loader = DataLoader(train_data, shuffle=True, batch_size=batch_size)  # expect: PP505
    for _ in range(epochs):
        train(model, train_loader, optimizer, criterion, device)


def main_bert(examples, model, optimizer, epochs, batch_size=8):
    device = torch.device("cuda")
    processor = BertProcessor()
    train_features = processor.create_features(examples, max_seq_len=256)
    train_dataset = processor.create_dataset(train_features)
    sampler = RandomSampler(train_dataset)
    train_dataloader = DataLoader(train_dataset, sampler=sampler, batch_size=batch_size)  # expect: PP505
    for _ in range(epochs):
        fit(model, train_dataloader, optimizer, device)


def main_images(root, model, optimizer, criterion, epochs):
    device = torch.device("cuda")
    images = datasets.ImageFolder(root, transforms.ToTensor())
    image_loader = DataLoader(images, batch_size=64, shuffle=True, num_workers=4)  # expect: PP505
    for _ in range(epochs):
        fit(model, image_loader, optimizer, device)
