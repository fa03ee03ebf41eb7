import numpy as np
import torch


def run(image, boxes, detector):
    image = torch.as_tensor(image.astype("float32").transpose(2, 0, 1))
    return detector(image.cuda(), torch.from_numpy(boxes).cuda())


def extract(dataloader, detector, out):
    with torch.no_grad():
        for batch in dataloader:
            imgs = batch["imgs"]
            boxes = batch["boxes"]
            assert len(imgs) == 1
            features = run(imgs[0], boxes[0], detector)
            out.append(features.cpu().numpy())
    return np.concatenate(out)
