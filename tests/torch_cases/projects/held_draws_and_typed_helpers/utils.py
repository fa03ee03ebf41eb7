import torch


class MixUp_AUG:
    def __init__(self):
        self.dist = torch.distributions.beta.Beta(torch.tensor([1.2]), torch.tensor([1.2]))

    def aug(self, rgb_gt, rgb_noisy):
        bs = rgb_gt.size(0)
        indices = torch.randperm(bs)
        lam = self.dist.rsample((bs, 1)).view(-1, 1, 1, 1).cuda()  # expect: PP506
        rgb_gt = lam * rgb_gt + (1 - lam) * rgb_gt[indices]
        rgb_noisy = lam * rgb_noisy + (1 - lam) * rgb_noisy[indices]
        return rgb_gt, rgb_noisy


def vgg_preprocess(tensor):
    mean = torch.Tensor([0.4076, 0.4580, 0.4850]).type_as(tensor).view(1, 3, 1, 1)  # expect: PP506
    return (tensor - mean) * 255
