"""Feature extraction whose collate gathers cv2 images and NumPy boxes into lists: pinning would pin nothing
(VL-T5's feature_extraction scripts, hold-out 17)."""

import json

import cv2
import numpy as np
from extractor import extract
from models import build_detector
from torch.utils.data import DataLoader, Dataset


class BoxDataset(Dataset):
    def __init__(self, image_dir, box_path):
        self.image_dir = image_dir
        with open(box_path) as f:
            self.entries = json.load(f)

    def __len__(self):
        return len(self.entries)

    def __getitem__(self, i):
        entry = self.entries[i]
        img = cv2.imread(f"{self.image_dir}/{entry['file']}")
        return {"id": entry["id"], "img": img, "boxes": np.array(entry["boxes"], dtype=np.float32)}


def collate_fn(batch):
    return {
        "ids": [e["id"] for e in batch],
        "imgs": [e["img"] for e in batch],
        "boxes": [e["boxes"] for e in batch],
    }


if __name__ == "__main__":
    dataset = BoxDataset("images", "boxes.json")
    dataloader = DataLoader(dataset, batch_size=1, shuffle=False, collate_fn=collate_fn, num_workers=4)
    extract(dataloader, build_detector().cuda().eval(), [])
