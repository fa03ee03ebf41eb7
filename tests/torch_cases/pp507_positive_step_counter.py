import losses
import torch
import torch.nn as nn


def train(config, base_network, ad_net, loaders, optimizer):
    len_source = len(loaders["source"])
    best_model = None
    for i in range(config["num_iterations"]):
        if i % config["test_interval"] == config["test_interval"] - 1:
            best_model = nn.Sequential(base_network)
        if i % len_source == 0:
            iter_source = iter(loaders["source"])
        inputs, labels = iter_source.next()
        inputs, labels = inputs.cuda(), labels.cuda()
        features, outputs = base_network(inputs)
        transfer_loss = losses.CDAN(features, ad_net, coeff(i))
        classifier_loss = nn.CrossEntropyLoss()(outputs, labels)  # expect: PP507 high
        total = transfer_loss + classifier_loss
        optimizer.zero_grad()
        total.backward()
        optimizer.step()
    return best_model


def coeff(step, high=1.0, alpha=10.0, max_iter=10000.0):
    return 2.0 * high / (1.0 + torch.exp(torch.tensor(-alpha * step / max_iter))) - high


def train_coral(model, optimizer, source_loader, target_loader, device, n_batches):
    model.train()
    for _ in range(n_batches):
        source, label = next(iter(source_loader))  # expect: PP507 medium
        target, _ = next(iter(target_loader))  # expect: PP507 medium
        source, label, target = source.to(device), label.to(device), target.to(device)
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(source), label) + model(target).var()
        loss.backward()
        optimizer.step()
