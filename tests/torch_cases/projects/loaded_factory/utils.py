import torch


def train(model, dataloader, optimizer, criterion, device):
    model.train()
    for batch in dataloader:
        premises = batch["premise"].to(device)
        labels = batch["label"].to(device)
        optimizer.zero_grad()
        loss = criterion(model(premises), labels)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0)
        optimizer.step()


def fit(model, dataloader, optimizer, device):
    for input_ids, label_ids in dataloader:
        input_ids, label_ids = input_ids.to(device), label_ids.to(device)
        optimizer.zero_grad()
        model(input_ids, labels=label_ids).loss.backward()
        optimizer.step()
