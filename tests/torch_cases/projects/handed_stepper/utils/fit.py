import torch


def fit_one_epoch(model, train_util, loader, epoch_step, cuda, scaler):
    total_loss = 0
    cls_loss = 0
    for iteration, batch in enumerate(loader):
        if iteration >= epoch_step:
            break
        images, boxes = batch[0], batch[1]
        with torch.no_grad():
            if cuda:
                images = images.cuda()
        cls, box, total = train_util.train_step(images, boxes, scaler)
        total_loss += total.item()  # expect: PP501
        cls_loss += cls.item()
    print(total_loss / epoch_step, cls_loss / epoch_step)


def run(model, optimizer, loader, keys, device):
    logs = {k: [] for k in keys}
    for _epoch in range(10):
        model.train()
        for _itr, batch in enumerate(loader):
            x = batch.to(device)
            out = model.step(x, optimizer)
            for k in keys:
                logs[k].append(out[k].data.item())  # expect: PP501
    return logs
