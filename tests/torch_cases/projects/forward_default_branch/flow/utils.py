import torch


def normalize_img(img):
    mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1).to(img.device)  # expect: PP506
    return img / 255.0 - mean


def normalize_depth(depth):
    scale = torch.tensor([0.5]).view(1, 1, 1, 1).to(depth.device)
    return depth * scale
