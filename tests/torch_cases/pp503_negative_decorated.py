import torch

device = torch.device("cuda")


def train(model, classifier, optimizer, loader):
    classifier.train()
    for inp, target in loader:
        output = classifier(model(inp.to(device, non_blocking=True)))
        loss = torch.nn.functional.cross_entropy(output, target.to(device, non_blocking=True))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


@torch.no_grad()
def validate_network(val_loader, model, classifier):
    classifier.eval()
    correct = 0
    for inp, target in val_loader:
        output = classifier(model(inp.to(device, non_blocking=True)))
        correct += (output.argmax(1) == target.to(device, non_blocking=True)).sum()
    return correct


def eval_linear(model, classifier, optimizer, train_loader, val_loader, epochs):
    model.eval()
    for _ in range(epochs):
        train(model, classifier, optimizer, train_loader)
        print(validate_network(val_loader, model, classifier))
