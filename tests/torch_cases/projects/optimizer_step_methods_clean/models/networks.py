import torch


def cal_gradient_penalty(net_d, real_data, fake_data, device):
    alpha = torch.rand(real_data.shape[0], 1, 1, 1, device=device)
    interpolates = (alpha * real_data + (1 - alpha) * fake_data).requires_grad_(True)
    scores = net_d(interpolates)
    gradients = torch.autograd.grad(
        outputs=scores,
        inputs=interpolates,
        grad_outputs=torch.ones(scores.size()).to(device),
        create_graph=True,
    )[0]
    return ((gradients.view(real_data.size(0), -1).norm(2, dim=1) - 1) ** 2).mean()
