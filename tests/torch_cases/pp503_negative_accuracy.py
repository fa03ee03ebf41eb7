import torch

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


# A notebook defines the helper twice; each cell's calls run under set_grad_enabled(False).
def compute_accuracy(model, data_loader):
    correct_pred, num_examples = 0, 0
    for features, targets in data_loader:
        logits, probas = model(features.to(device))
        num_examples += targets.size(0)
        correct_pred += (torch.argmax(probas, 1) == targets.to(device)).sum()
    return correct_pred.float() / num_examples * 100


with torch.set_grad_enabled(False):
    print(compute_accuracy(model, test_loader))  # noqa: F821


def compute_accuracy(model, data_loader):  # noqa: F811
    correct_pred, num_examples = 0, 0
    for features, targets in data_loader:
        logits, probas = model(features.to(device))
        num_examples += targets.size(0)
        correct_pred += (torch.argmax(probas, 1) == targets.to(device)).sum()
    return correct_pred.float() / num_examples * 100


with torch.set_grad_enabled(False):
    print(compute_accuracy(model, test_loader))  # noqa: F821
