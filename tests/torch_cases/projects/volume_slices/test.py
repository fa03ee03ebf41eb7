"""Inference over whole test volumes: the loader's batches go to utils.py's `test_single_volume`, which
turns them into NumPy before copying per-slice tensors, so pinning the batch would save nothing."""

import numpy as np
from datasets import SynapseDataset
from torch.utils.data import DataLoader
from utils import test_single_volume


def inference(args, model):
    db_test = SynapseDataset(base_dir=args.volume_path, split="test_vol")
    testloader = DataLoader(db_test, batch_size=1, shuffle=False, num_workers=1)
    model = model.cuda()
    model.eval()
    metric_list = 0.0
    for sampled_batch in testloader:
        image, label = sampled_batch["image"], sampled_batch["label"]
        metric_i = test_single_volume(image, label, model, classes=args.num_classes)
        metric_list += np.array(metric_i)
    return metric_list / len(db_test)
