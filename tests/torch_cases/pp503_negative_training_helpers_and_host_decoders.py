import numpy as np
import scipy.ndimage
import torch


def train_mlp(model, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
        loss.backward()
        optimizer.step()


def train_test_mlp(train_idx, test_idx, features, labels, make_model):
    model = make_model()
    optimizer = torch.optim.Adam(model.parameters())
    loader = [(torch.from_numpy(features[i]), torch.from_numpy(labels[i])) for i in train_idx]
    train_mlp(model, loader, optimizer)
    return model


def evaluate_mlp(features, labels, folds, make_model):
    results = []
    for train_idx, test_idx in folds:
        result = train_test_mlp(train_idx, test_idx, features, labels, make_model)
        results.append(result)
    return results


def get_predictions(model, dataloader, decoder, threshold=0.5):
    model.eval()
    predictions = []
    for batch, _ in dataloader:
        with torch.no_grad():
            strong = model(batch.cuda())
        strong = strong.cpu().numpy()
        for item in strong:
            binary = np.where(item > threshold, 1, 0)
            filtered = scipy.ndimage.median_filter(binary, (7, 1))
            pred = decoder(filtered)
            predictions.append(pred)
    return predictions
