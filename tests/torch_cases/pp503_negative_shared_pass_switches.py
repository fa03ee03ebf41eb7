"""pp503_positive_shared_pass_switches.py's passes run under no_grad, or training: the `else:` of `if
is_train and not is_first_epoch:` may train, a mode compared with `is not` names the mode that skips, and
the `while` loop counts through the training split."""

import torch


def train_or_eval(criterion, net, data, optim, is_train, is_first_epoch):
    if is_train:
        net.train()
    else:
        net.eval()
    for i, (x, y) in enumerate(data):
        loss = criterion(net(x.cuda()), y.cuda()).mean()
        if is_train and not is_first_epoch:
            optim.zero_grad()
            loss.backward()
            optim.step()
        if is_first_epoch and i == 10:
            break


def fit(criterion, net, data_train, data_val, optim, epochs):
    for epoch in range(epochs):
        train_or_eval(criterion, net, data_train, optim, True, epoch == 0)
        with torch.no_grad():
            train_or_eval(criterion, net, data_val, None, False, epoch == 0)


def run(model, criterion, optimizer, dataloader, mode="train"):
    total = 0.0
    for x, y in dataloader:
        loss = criterion(model(x.cuda()), y.cuda())
        if mode is "train":  # noqa: F632
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        total += loss.detach()
    return total


def main(model, criterion, optimizer, train_loader, valid_loader, epochs):
    for _ in range(epochs):
        run(model, criterion, optimizer, train_loader, "train")
        with torch.no_grad():
            run(model, criterion, optimizer, valid_loader, "eval")


def get_batch(dataset, i, size):
    rows = dataset[i : i + size]
    return torch.stack([r[0] for r in rows]), torch.tensor([r[1] for r in rows])


def fit_epochs(model, loss_function, optimizer, train_data, val_data, epochs, size):
    for _ in range(epochs):
        i = 0
        while i < len(train_data):
            inputs, labels = get_batch(train_data, i, size)
            i += size
            model.zero_grad()
            loss_function(model(inputs.cuda()), labels.cuda()).backward()
            optimizer.step()
        total_loss = 0.0
        i = 0
        while i < len(val_data):
            inputs, labels = get_batch(val_data, i, size)
            i += size
            with torch.no_grad():
                output = model(inputs.cuda())
            total_loss += loss_function(output, labels.cuda()).detach()
        print(total_loss)


def fit_or_probe(net, data, optim, is_train, warmup):
    for x, y in data:
        loss = net(x.cuda()).sub(y.cuda()).pow(2).mean()
        if is_train and warmup:
            pass
        else:
            optim.zero_grad()
            loss.backward()
            optim.step()


def fit_probe(net, data, optim, epochs):
    for _ in range(epochs):
        fit_or_probe(net, data, optim, True, False)
        fit_or_probe(net, data, optim, False, False)


def run_mode(model, optimizer, loader, mode="train"):
    for x, y in loader:
        loss = model(x.cuda()).sub(y.cuda()).pow(2).mean()
        if mode is not "eval":  # noqa: F632
            loss.backward()
            optimizer.step()


def main_modes(model, optimizer, loader, epochs):
    for _ in range(epochs):
        run_mode(model, optimizer, loader, "train")
        run_mode(model, optimizer, loader, "finetune")
