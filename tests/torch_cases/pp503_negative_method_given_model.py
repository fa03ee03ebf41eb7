import torch
from methods import get_method
from models import get_model


def run_test(args, test_loader, device):
    model = get_model(args).to(device)
    method = get_method(args)
    model.eval()
    method.eval()
    test_acc = torch.zeros((), device=device)
    for support, query, support_labels, query_labels in test_loader:
        support, query = support.to(device), query.to(device)
        support_labels, query_labels = support_labels.to(device), query_labels.to(device)
        loss, preds_q = method(x_s=support, x_q=query, y_s=support_labels, y_q=query_labels, model=model)
        test_acc += (preds_q == query_labels).float().mean()
    return test_acc / len(test_loader)
