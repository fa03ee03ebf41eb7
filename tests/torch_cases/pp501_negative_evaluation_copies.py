"""PP501 (torch-fix121): evaluation loops whose host copies stay unreported. Outputs written to disk per image
need the host copy on each batch (SynthDehazing's albedo dump); a copy of labels the loop never moved is a
host tensor (`labels.tolist()`); a loop that stops after a handful of batches (`if i > 2: break`) costs a few
waits in all; a copy fed to a host algorithm within the batch (`find_centroids(dp)`) is the batch's own work."""

import cv2
import numpy as np
import torch

device = torch.device("cuda")


def save_albedos(model, test_loader, save_path):
    with torch.no_grad():
        for names, hazy in test_loader:
            albedo = model(hazy.to(device))
            for k in range(len(names)):
                image = albedo[k].cpu().numpy()
                image = np.moveaxis(image, 0, 2)
                cv2.imwrite(save_path + names[k], image)


def collect_labels(model, valid_loader):
    true_labels = []
    with torch.no_grad():
        for samples, labels in valid_loader:
            model(samples.to(device))
            true_labels.extend(labels.tolist())
    return true_labels


def validate_few(model, loader):
    scores = []
    with torch.no_grad():
        for i, (x, _) in enumerate(loader):
            if i > 2:
                break
            scores.append(model(x.to(device)).cpu())
    return scores


def find_centroids(dp):
    return dp.mean(axis=0)


def label_instances(model, data_loader):
    found = []
    with torch.no_grad():
        for pack in data_loader:
            dp = model(pack["img"].cuda(non_blocking=True))
            dp = dp.cpu().numpy()
            found.append(find_centroids(dp))
    return found
