import torch
import torch.nn as nn
import utils.episodes as ep
from losses.photometric import PhotometricLoss


def train(model, loader, optimizer, n_way, n_shot, device):
    criterion = PhotometricLoss()
    classify = nn.CrossEntropyLoss()
    for img1, img2 in loader:
        img1, img2 = img1.cuda(), img2.cuda()
        flow, logits = model(img1, img2)
        label = ep.way_labels(n_way, n_shot).cuda()  # expect: PP506
        label_on = ep.way_labels_on(n_way, n_shot).to(device)
        picked = ep.shuffled(img1.argmax(1)).cuda()
        loss = criterion(img1, img2, flow) + classify(logits, label) + classify(logits, label_on)
        loss = loss + picked.float().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return torch.zeros(1)
