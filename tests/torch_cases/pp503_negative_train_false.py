import torch
import torch.nn as nn


def train(model, train_loader, eval_loader, num_epochs):
    optim = torch.optim.Adamax(model.parameters(), lr=1e-3)
    for epoch in range(num_epochs):
        for v, q, a in train_loader:
            v, q, a = v.cuda(), q.cuda(), a.cuda()
            pred = model(v, q)
            loss = nn.functional.binary_cross_entropy_with_logits(pred, a)
            loss.backward()
            optim.step()
            optim.zero_grad()
        if eval_loader is not None:
            model.train(False)
            eval_score = vqa_score(model, eval_loader)
            model.train(True)
            print(epoch, eval_score)


@torch.no_grad()
def vqa_score(model, dataloader):
    score = 0
    for v, q, a in dataloader:
        pred = model(v.cuda(), q.cuda())
        score += (pred.argmax(1) == a.cuda().argmax(1)).sum().item()  # expect: PP501
    return score / len(dataloader.dataset)


def finetune(model, loader, optim, frozen):
    model.train(not frozen)
    for v, q, a in loader:
        loss = nn.functional.mse_loss(model(v.cuda(), q.cuda()), a.cuda())
        loss.backward()
        optim.step()
