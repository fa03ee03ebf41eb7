"""Evaluation passes after `eval()` (torch-fix51): a test or inference loop whose def trains nothing reports
at high; one in a def that also steps an optimizer or takes gradients (FROMP's Jacobians of an eval-mode
model, a test-time adaptation), and one whose batches a helper is told are for evaluation (AWD-LSTM's `get_batch(..., evaluation=True)`,
volatile before PyTorch 0.4), stay at medium."""

import torch.nn.functional as F
from utils import get_batch


def test_inference(model, test_loader, device):
    model.eval()
    correct = 0
    for images, labels in test_loader:
        images, labels = images.to(device), labels.to(device)
        outputs = model(images)  # expect: PP503 high
        correct += (outputs.argmax(1) == labels).sum().item()  # expect: PP501
    return correct / len(test_loader.dataset)


def score_then_adapt(model, query_loader, support, optimizer):
    model.eval()
    scores = []
    for inputs, _ in query_loader:
        scores.append(model(inputs.cuda()).max(1)[0])  # expect: PP503 medium
    model.train()
    optimizer.zero_grad()
    F.cross_entropy(model(support[0].cuda()), support[1].cuda()).backward()
    optimizer.step()
    return scores


def evaluate(model, data_source, criterion, bptt=70):
    model.eval()
    total_loss = 0.0
    hidden = model.init_hidden(10)
    for i in range(0, data_source.size(0) - 1, bptt):
        data, targets = get_batch(data_source, i, evaluation=True)
        output, hidden = model(data, hidden)  # expect: PP503 medium
        total_loss += len(data) * F.cross_entropy(output.view(-1, output.size(-1)), targets).data
    return total_loss / len(data_source)
