"""A notebook comparing pretrained models (timm's EffResNetComparison, hold-out 13): `model_runner()` builds
one model and its loader, validates it over the whole data set and empties the CUDA cache before the next
model; the loops over model lists call it once per model, not once per step."""

import timm
import torch
from torch.utils.data import DataLoader


def validate(model, loader):
    model.eval()
    correct = torch.zeros((), device="cuda")
    with torch.no_grad():
        for x, y in loader:
            out = model(x.cuda(non_blocking=True))
            correct += (out.argmax(1) == y.cuda(non_blocking=True)).sum()
    return {"top1": 100.0 * correct.item() / len(loader.dataset)}


def model_runner(model_args, dataset):
    model = timm.create_model(model_args["model_name"], pretrained=True).cuda()
    loader = DataLoader(dataset, batch_size=256, num_workers=2, pin_memory=True)
    result = validate(model, loader)
    del model
    del loader
    torch.cuda.empty_cache()
    return model_args["model_name"], result


def compare(models_effnet, models_resnet, dataset):
    results_effnet, results_resnet = {}, {}
    for ma in models_effnet:
        mk, mr = model_runner(ma, dataset)
        results_effnet[mk] = mr
    for ma in models_resnet:
        mk, mr = model_runner(ma, dataset)
        results_resnet[mk] = mr
    return {**results_effnet, **results_resnet}
