from timeit import default_timer as timer

import torch
from PIL import Image


def pred_and_store(paths, model, transform, class_names, device="cuda"):
    """Predict one image at a time and time each prediction: the latency of one request is the point."""
    pred_list = []
    model.to(device)
    model.eval()
    for path in paths:
        start_time = timer()
        image = transform(Image.open(path)).unsqueeze(0).to(device)
        with torch.inference_mode():
            pred_prob = torch.softmax(model(image), dim=1)
        pred_list.append({"path": path, "prob": pred_prob, "seconds": timer() - start_time})
    return pred_list
