# a tuple of host values one of which steers the loop (a best-loss checkpoint), and an assert on the value
# that is not a divergence check
import torch


def train_epoch(loader, model, loss_fun, optimizer, save, best):
    for inputs, labels in loader:
        inputs, labels = inputs.cuda(), labels.cuda()
        preds = model(inputs)
        loss = loss_fun(preds, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_value, err = loss.item(), (preds.argmax(1) != labels).float().mean().item()
        if loss_value < best:
            best = loss_value
            save(model)
        print(err)
    return best


def train_bounded(loader, model, loss_fun, optimizer):
    for inputs, labels in loader:
        loss = loss_fun(model(inputs.cuda()), labels.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_value = loss.item()
        assert loss_value < 1e6, "loss blew up"


model = torch.nn.Linear(10, 2).cuda()
