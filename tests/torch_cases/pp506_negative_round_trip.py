# torch-fix94: clean twin of pp506_positive_round_trip: the masks are thresholded on the device
import torch


def train(opt, loader, tocg, optimizer):
    tocg.train()
    for inputs in loader:
        cm = inputs["cloth_mask"].cuda()
        cm = (cm > 0.5).float()
        flow, fake, warped = tocg(inputs["cloth"].cuda(), cm)
        onehot = (warped.detach() > 0.5).float()
        loss = torch.nn.functional.l1_loss(fake * onehot, inputs["parse"].cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
