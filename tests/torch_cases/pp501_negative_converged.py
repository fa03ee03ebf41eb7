"""PP501 (review-mend12, review25 item 2), silent: a loss read that feeds a convergence test. The branch
`if loss < 1e-4: converged = True` binds only a constant (no running worst or best is kept), and
`if converged: break` then stops training: the read steers the loop, it is not a statistic for the log."""

import torch.nn.functional as F


def train(model, loader, optimizer):
    model = model.cuda()
    converged = False
    for _step, (x, y) in enumerate(loader):
        x, y = x.cuda(), y.cuda()
        loss = F.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss = loss.item()
        if loss < 1e-4:
            converged = True
        if converged:
            break
