import torch.nn.functional as F


def evaluate_saliency(model, loader, log):
    n_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
    log(f"{n_params} trainable parameters")
    model.eval()
    maps = []
    for x, y in loader:
        x = x.cuda()
        x.requires_grad = True
        out = model(x)
        F.cross_entropy(out, y.cuda()).backward()
        maps.append(x.grad.abs())
    return maps
