# a saliency loop that backpropagates and advances a warm-up schedule (`*_step` of no optimizer): it updates
# no weights, so its per-image reads are the map it draws
import torch


def saliency(model, images, warmup, device):
    maps = []
    for image in images:
        x = image.to(device).unsqueeze(0).requires_grad_(True)
        model(x).max().backward()
        warmup.first_step()
        maps.append(x.grad.abs().amax(1).cpu())
    return maps


model = torch.nn.Linear(10, 2).cuda()
