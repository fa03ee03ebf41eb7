"""A viewer over a loader (pytorch-retinanet's visualize.py): every image waits for a key press."""

import cv2
import numpy as np
import torch
from retinanet.dataloader import CocoDataset, collater
from torch.utils.data import DataLoader


def main(model_path, coco_path, image_folder):
    dloaders = {"val": DataLoader(image_folder, batch_size=8, shuffle=True, num_workers=2)}
    visualize_predictions(torch.load(model_path).cuda(), dloaders, "cuda", {0: "ant", 1: "bee"})
    dataset_val = CocoDataset(coco_path, set_name="val2017")
    dataloader_val = DataLoader(dataset_val, num_workers=1, collate_fn=collater)
    retinanet = torch.load(model_path).cuda()
    retinanet.eval()
    for data in dataloader_val:
        with torch.no_grad():
            scores, classification, boxes = retinanet(data["img"].cuda().float())
            img = np.array(255 * data["img"][0, :, :, :]).copy()
            idxs = np.where(scores.cpu() > 0.5)
            for j in range(idxs[0].shape[0]):
                bbox = boxes[idxs[0][j], :]
                cv2.rectangle(img, (int(bbox[0]), int(bbox[1])), (int(bbox[2]), int(bbox[3])), (0, 0, 255), 2)
            cv2.imshow("img", img)
            cv2.waitKey(0)


def visualize_predictions(pretrained_model, dloaders, dvc, classes_dict, max_num_imgs=4):
    """Mastering PyTorch's shape: a few validation images drawn with their predicted labels."""
    import matplotlib.pyplot as plt

    pretrained_model.eval()
    imgs_counter = 0
    with torch.no_grad():
        for imgs, _ in dloaders["val"]:
            imgs = imgs.to(dvc)
            _, preds = torch.max(pretrained_model(imgs), 1)
            for j in range(imgs.size()[0]):
                imgs_counter += 1
                ax = plt.subplot(max_num_imgs // 2, 2, imgs_counter)
                ax.set_title(f"pred: {classes_dict[int(preds[j])]}")
                if imgs_counter == max_num_imgs:
                    return
