import torch
from losses import compute_loss_and_nll  # a project module: ppcheck does not see what it returns


def train_epoch(model, loader, optimizer, args):
    model.cuda()
    nll_epoch = []
    for data in loader:
        x = torch.as_tensor(data["positions"]).cuda()
        optimizer.zero_grad()
        nll, reg_term, mean_abs_z = compute_loss_and_nll(args, model, x)
        loss = nll + args.ode_regularization * reg_term
        loss.backward()
        optimizer.step()
        nll_epoch.append(nll.item())  # expect: PP501
    return nll_epoch
