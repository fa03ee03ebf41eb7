# torch-fix94: a try-on generator's step thresholds a mask it holds on the GPU by reading it back to NumPy and
# copying the result to the device again, on every step
import numpy as np
import torch


def train(opt, loader, tocg, optimizer):
    tocg.train()
    for inputs in loader:
        cm = inputs["cloth_mask"].cuda()
        cm = torch.FloatTensor((cm.cpu().numpy() > 0.5).astype(np.float32)).cuda()  # expect: PP506 high  # expect: PP501  # fmt: skip
        flow, fake, warped = tocg(inputs["cloth"].cuda(), cm)
        onehot = torch.from_numpy((warped.detach().cpu().numpy() > 0.5).astype(np.float32))  # expect: PP501
        onehot = onehot.cuda()  # expect: PP506 high
        loss = torch.nn.functional.l1_loss(fake * onehot, inputs["parse"].cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
