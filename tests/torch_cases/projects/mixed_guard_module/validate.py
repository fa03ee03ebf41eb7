"""Scores the segmentation head on the validation set: its module also holds a self-guarded detection head,
but the one run here leaves autograd on, so each batch records a graph."""

import torch
from models.heads import SegmentationHead


def validate(model, loader, device, num_classes):
    confusion = torch.zeros(num_classes * num_classes, device=device)
    for feats, masks in loader:
        logits = model(feats.to(device))  # expect: PP503
        pred = logits.argmax(1).flatten()
        target = masks.to(device).flatten()
        confusion += torch.bincount(target * num_classes + pred, minlength=num_classes**2)
    confusion = confusion.view(num_classes, num_classes)
    union = confusion.sum(0) + confusion.sum(1) - confusion.diag()
    return (confusion.diag() / union.clamp(min=1)).mean().item()


if __name__ == "__main__":
    device = torch.device("cuda")
    model = SegmentationHead(256, 21).to(device).eval()
    model.load_state_dict(torch.load("seg_head.pt"))
    print("mIoU", validate(model, torch.load("val_feats.pt"), device, 21))
