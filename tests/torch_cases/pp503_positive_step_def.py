import torch.nn.functional as F


def train(model, optimizer, features, adj, labels, idx_train, idx_val, args):
    model.train()
    optimizer.zero_grad()
    output = model(features, adj)
    loss_train = F.nll_loss(output[idx_train], labels[idx_train])
    loss_train.backward()
    optimizer.step()

    if not args.fastmode:
        model.eval()
        output = model(features, adj)  # expect: PP503

    loss_val = F.nll_loss(output[idx_val], labels[idx_val])
    return loss_val.item()


def fit(model, optimizer, features, adj, labels, idx_train, idx_val, args):
    for _ in range(args.epochs):
        print(train(model, optimizer, features, adj, labels, idx_train, idx_val, args))
