import torch
from previous_chapters import create_dataloader_v1, load_data

device = torch.device("cuda")


def train_model(model, optimizer, text, num_epochs):
    train_loader = create_dataloader_v1(text, batch_size=2)
    for _ in range(num_epochs):
        for input_batch, target_batch in train_loader:
            input_batch, target_batch = input_batch.to(device), target_batch.to(device)
            logits = model(input_batch)
            loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1), target_batch.flatten())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


train_loader, loc_max = load_data(128)


def train(model, optimizer):
    for data, relations in train_loader:
        data, relations = data.cuda(), relations.cuda()
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(data), relations).backward()
        optimizer.step()
