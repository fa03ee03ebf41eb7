import torch
import torch.nn as nn
from losses import domain_adversary
from utils import make_cuda, make_variable


def train_target(encoder, critic, src_loader, tgt_loader, epochs):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(critic.parameters(), lr=1e-4)
    for _epoch in range(epochs):
        for (images_src, _), (images_tgt, _) in zip(src_loader, tgt_loader, strict=False):
            images_src = make_cuda(images_src)
            images_tgt = make_cuda(images_tgt)
            feat_src = encoder(images_src)
            feat_tgt = encoder(images_tgt)
            pred = critic(torch.cat((feat_src, feat_tgt), 0))
            label_src = make_variable(torch.ones(feat_src.size(0), dtype=torch.long, device=pred.device))
            label_tgt = torch.zeros(feat_tgt.size(0), dtype=torch.long, device=pred.device)
            loss = criterion(pred, torch.cat((label_src, label_tgt), 0))
            loss = loss + domain_adversary(torch.cat((feat_src, feat_tgt), 0), critic)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
