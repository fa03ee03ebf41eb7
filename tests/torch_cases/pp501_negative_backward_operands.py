import torch
import torch.nn.functional as F
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
        nll_epoch.append(nll.detach())
    return torch.stack(nll_epoch).mean().item()


def train_weighted(model, loader, optimizer, writer, ramp_weight):
    # a single name bound from a call and multiplied into the loss is as often a Python weight: not typed
    for step, (x, y) in enumerate(loader):
        optimizer.zero_grad()
        out = model(x.cuda())
        loss_s = F.cross_entropy(out, y.cuda())
        loss_u = out.softmax(1).var()
        weight = ramp_weight(step)
        loss = loss_s + weight * loss_u
        loss.backward()
        optimizer.step()
        writer.add_scalar("info/consistency_weight", weight, step)
