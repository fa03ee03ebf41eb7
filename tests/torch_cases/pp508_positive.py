import torch


def classify(model, dataset, device):
    model.eval()
    predictions = []
    with torch.no_grad():
        for image, _ in dataset:
            logits = model(image.unsqueeze(0).to(device))  # expect: PP508
            predictions.append(logits.argmax(1).item())
    return predictions


def embed_all(encoder, sentences):
    with torch.no_grad():
        return [encoder(torch.tensor([s])) for s in sentences]  # expect: PP508


def score(net, features):
    out = []
    with torch.no_grad():
        for i in range(len(features)):
            x = features[i : i + 1]
            out.append(net(x))  # expect: PP508
    return out


def score_arrays(model, arrays):
    import numpy as np

    with torch.no_grad():
        return [model(torch.from_numpy(a[np.newaxis])) for a in arrays]  # expect: PP508
