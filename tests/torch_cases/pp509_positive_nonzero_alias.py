# CSS-VQA's training step (hold-out 49) with torch imported as `th` (review 28 item 7): `th.nonzero` of one
# row of a device mask per sample is the same host read as `torch.nonzero`
import torch as th
from torch import nn


def train(model, train_loader, optim, epochs, top_hint):
    for _epoch in range(epochs):
        for v, q, a in train_loader:
            v, q, a = v.cuda(), q.cuda(), a.cuda()
            pred, visual_grad = model(v, q)
            loss = nn.functional.binary_cross_entropy_with_logits(pred, a)
            loss.backward()
            optim.step()
            optim.zero_grad()
            v_mask = th.zeros(v.shape[0], 36, device=v.device)
            v_grad, v_ind = visual_grad.sum(2).sort(1, descending=True)
            v_grad_mask = (th.cumsum(v_grad, dim=1) <= 0.65).long()
            v_mask_ind = v_grad_mask * v_ind[:, :top_hint]
            for x in range(a.shape[0]):
                num = len(th.nonzero(v_grad_mask[x]))  # expect: PP509
                v_mask[x].scatter_(0, v_mask_ind[x, :num], 1)
