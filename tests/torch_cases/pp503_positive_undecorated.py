import torch

device = torch.device("cuda")


def validate_network(val_loader, model, classifier):  # not decorated with @torch.no_grad()
    classifier.eval()
    correct = 0
    for inp, target in val_loader:
        output = classifier(model(inp.to(device, non_blocking=True)))  # expect: PP503 high
        correct += (output.argmax(1) == target.to(device, non_blocking=True)).sum()
    return correct
