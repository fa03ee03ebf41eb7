"""Loops over a batch's rows that index a host list or NumPy array with an element of a device tensor
(torch-fix55): the index calls the tensor's `__index__`, one host read per row. Also a row read through the
pre-0.4 `.data` attribute (`output.data[i].cpu()`)."""

import numpy as np
import torch


def per_category_iou(model, loader, num_parts):
    iou_per_cat = np.zeros(16).astype(np.float32)
    seen_per_cat = np.zeros(16).astype(np.float32)
    model.eval()
    with torch.no_grad():
        for points, label, target in loader:
            points, label, target = points.cuda(), label.squeeze(1).cuda(), target.cuda()
            pred = model(points)
            shape_ious = pred.argmax(-1).eq(target).float().mean(-1)
            for k in range(pred.size(0)):
                cat = label[k]
                iou_per_cat[cat] += shape_ious[k]  # expect: PP509
                seen_per_cat[cat] += 1
    return iou_per_cat / np.maximum(seen_per_cat, 1)


def answer_questions(model, data_loader, device):
    result = []
    for images, question_ids in data_loader:
        images = images.to(device)
        topk_ids, topk_probs = model(images)
        for qid, topk_id, topk_prob in zip(question_ids, topk_ids, topk_probs, strict=True):
            _, best = topk_prob.max(dim=0)
            result.append({"id": qid, "answer": data_loader.dataset.answers[topk_id[best]]})  # expect: PP509
    return result


def dump_scores(model, loader, device, lines):
    for videos, _target, ids in loader:
        videos = videos.to(device)
        output = model(videos)  # expect: PP503
        for i in range(output.size(0)):
            lines.append(f"{ids[i]} {output.data[i].cpu().numpy().tolist()}")  # expect: PP509 medium
    return lines
