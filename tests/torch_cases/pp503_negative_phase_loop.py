"""The tutorial's shape: the phase loop switches grad itself, or every phase trains."""

import torch


def fit(model, loaders, optimizer, epochs):
    for _epoch in range(epochs):
        for phase in ["train", "val"]:
            if phase == "train":
                model.train()
            else:
                model.eval()
            for x, y in loaders[phase]:
                x, y = x.cuda(), y.cuda()
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    out = model(x)
                    loss = torch.nn.functional.cross_entropy(out, y)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()


def fit_no_grad(model, loaders, optimizer, epochs):
    for _epoch in range(epochs):
        for phase in ["train", "val"]:
            for x, y in loaders[phase]:
                if phase == "train":
                    loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
                else:
                    with torch.no_grad():
                        model(x.cuda())


def fit_domains(model, loaders, optimizer, epochs):
    for _epoch in range(epochs):
        for domain in ["source", "target"]:
            for x, y in loaders[domain]:
                loss = torch.nn.functional.cross_entropy(model(x.cuda()), y.cuda())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
