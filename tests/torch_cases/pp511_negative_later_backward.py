import torch


def train_multi_head(loader, backbone, heads, criterion, optimizer):
    for x, target in loader:
        x, target = x.cuda(), target.cuda()
        feature = torch.relu(backbone(x))
        outputs = [head(feature) for head in heads]
        head_losses = []
        for out in outputs:
            optimizer.zero_grad()
            head_loss = criterion(out, target)
            head_loss.backward(retain_graph=True)
            head_losses.append(head_loss.detach())
        loss = criterion(backbone.classify(feature), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
