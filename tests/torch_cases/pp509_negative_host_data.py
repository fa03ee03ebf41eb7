"""PP509 loops over host data or over shapes, not over a device tensor's rows (torch-fix87): a collate function's
list of samples, a loop over a name an `isinstance(x, list)` test has shown to be a list, `int()` of a shape, a
renderer's dict of named outputs and a loader's batches."""

import numpy as np
import torch
import torch.nn.functional as F


def graph_collate_func(x):
    atoms = torch.cat([x[j][0].unsqueeze(0) for j in range(len(x))], 0)
    bonds_lst = []
    for j in range(len(x)):
        bonds_lst.append(x[j][1].unsqueeze(0))
    return atoms, torch.cat(bonds_lst, 0)


def crop_audio(y, length, rng, fixed=False):
    size = y[0].shape[-1] if isinstance(y, list) else y.shape[-1]
    if size < length:
        left = 0 if fixed else rng.randint(length - size + 1)
        right = length - size - left
        if isinstance(y, list):
            for i in range(len(y)):
                y[i] = F.pad(y[i], (left, right))
            size = y[0].shape[-1]
        else:
            y = F.pad(y, (left, right))
            size = y.shape[-1]
    begin = 0 if fixed else rng.randint(size - length + 1)
    end = length + begin
    if isinstance(y, list):
        for i in range(len(y)):
            y[i] = y[i][..., begin:end]
    else:
        y = y[..., begin:end]
    return y


def overlap_add(frames, hop, device):
    batch, count, width = frames.shape
    y = torch.zeros(batch, hop * (count - 1) + width, device=device)
    for t in range(count):
        y[:, t * hop : t * hop + width] += frames[:, t]
    return y


def train_decoders(encoder, decoders, optimizers, loader, activation, layers, device):
    iterator = iter(loader)
    for _i in range(len(loader)):
        image, _ = next(iterator)
        image = image.to(device)
        with torch.no_grad():
            encoder(image)
        for _n, layer in enumerate(layers):
            e = activation[layer].transpose(1, 2)[..., 1:]
            side = int(np.sqrt(e.size(2)))
            e = e.reshape(-1, e.size(1), side, side)
            loss = decoders[layer](e).mean()
            optimizers[layer].zero_grad()
            loss.backward()
            optimizers[layer].step()


@torch.no_grad()
def validate(test_loader, net):
    correct = 0
    total = 0
    net.eval()
    device = next(net.parameters()).device
    for _batch_idx, (inputs, targets) in enumerate(test_loader):
        inputs = inputs.to(device)
        outputs = net(inputs)
        _, predicted = outputs.cpu().max(1)
        total += float(targets.size(0))
        correct += float(predicted.eq(targets).sum().item())
    return correct / total


def render_image(net, rays, chunk, device):
    merged = {}
    for start in range(0, rays.shape[0], chunk):
        batch = rays[start : start + chunk].to(device)
        with torch.no_grad():
            ret = net(batch)
        for key in ret:
            if key not in merged:
                merged[key] = [ret[key].cpu()]
            else:
                merged[key].append(ret[key].cpu())
    return {k: torch.cat(v) for k, v in merged.items()}


def main(cfg, loader, test_loader, make_optimizers, build_encoder, build_decoders, activation):
    encoder, layers, dims = build_encoder(cfg)
    encoder = encoder.to(cfg.device).eval()
    decoders = [d.to(cfg.device) for d in build_decoders(dims)]
    optimizers = make_optimizers(decoders)
    accuracies = []
    for _epoch in range(cfg.epochs):
        train_decoders(encoder, decoders, optimizers, loader, activation, layers, cfg.device)
        net = encoder.cuda()
        accuracies.append(validate(test_loader, net))
    return accuracies


def per_video_sizes(model, clips, labels, n, k, device):
    sizes = []
    for clip, label in zip(clips, labels, strict=False):
        output = model(clip.to(device))
        target = label.to(device)
        for vid in output.view(n, -1, k):
            side = int(np.sqrt(vid.size(1)))
            sizes.append(side * float(target.size(0)))
    return sizes
