import torch
from utils import load_image, save_image


def main(model, paths):
    model.eval()
    for k, v in model.named_parameters():
        if k.startswith("head"):
            v.requires_grad = False
    model = model.to("cuda")
    for idx, path in enumerate(paths):
        img_L = torch.from_numpy(load_image(path)).to("cuda")
        img_E = model(img_L)  # expect: PP503 high
        save_image(img_E.data.squeeze().float().cpu().numpy(), f"{idx}.png")
