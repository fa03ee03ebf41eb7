"""Defs that backpropagate without stepping, silent: a saliency map's input gradient under a test name, a
gradient-penalty helper that reads nothing, a backward def whose only read is under a logging switch
behind a step count, and an autograd Function's `backward` calling a compiled extension's."""

import sampling_ext
import torch


class SamplingFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, points, features):
        ctx.save_for_backward(torch.Tensor([features.size(2)]), points)
        return sampling_ext.forward(points, features)

    @staticmethod
    def backward(ctx, grad_out):
        scale, points = ctx.saved_tensors
        scale = int(scale.item())
        return sampling_ext.backward(scale, grad_out.contiguous(), points), None


def resample(points, features):
    out = SamplingFunction.apply(points, features)
    sampling_ext.backward(int(out.sum().item()), out, points)
    return out


def test_saliency(model, x, y):
    x = x.cuda().requires_grad_(True)
    loss = torch.nn.functional.cross_entropy(model(x), y.cuda())
    loss.backward()
    return x.grad.abs().max().item()


def penalty_backward(critic, real, fake, weight):
    alpha = torch.rand(real.size(0), 1, 1, 1, device=real.device)
    mixed = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    grads = torch.autograd.grad(critic(mixed).sum(), mixed, create_graph=True)[0]
    penalty = weight * ((grads.flatten(1).norm(2, dim=1) - 1) ** 2).mean()
    penalty.backward()
    return penalty.detach()


def generator_backward(gen, critic, z, step, log_every, writer):
    loss = -critic(gen(z.cuda())).mean()
    loss.backward()
    if step % log_every == 0:
        writer.add_scalar("g_loss", loss.item(), step)
    return loss.detach()
