"""The evaluation passes of pp503_positive_evaluation_pass.py under torch.no_grad(): nothing to report."""

import torch
import torch.nn.functional as F
from utils import get_batch


def test_inference(model, test_loader, device):
    model.eval()
    correct = 0
    with torch.no_grad():
        for images, labels in test_loader:
            images, labels = images.to(device), labels.to(device)
            outputs = model(images)
            correct += (outputs.argmax(1) == labels).sum().item()  # expect: PP501
    return correct / len(test_loader.dataset)


def score_then_adapt(model, query_loader, support, optimizer):
    model.eval()
    scores = []
    with torch.no_grad():
        for inputs, _ in query_loader:
            scores.append(model(inputs.cuda()).max(1)[0])
    model.train()
    optimizer.zero_grad()
    F.cross_entropy(model(support[0].cuda()), support[1].cuda()).backward()
    optimizer.step()
    return scores


def evaluate(model, data_source, criterion, bptt=70):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(10)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, bptt):
            data, targets = get_batch(data_source, i, evaluation=True)
            output, hidden = model(data, hidden)
            total_loss += len(data) * F.cross_entropy(output.view(-1, output.size(-1)), targets).data
    return total_loss / len(data_source)
