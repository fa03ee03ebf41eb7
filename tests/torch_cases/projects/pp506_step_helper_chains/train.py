import torch.nn.functional as F
from attack import earlystop
from layers.attention import FullAttention
from masking import create_mask


def train_step(model, opt, inp, tar):
    predictions = model(inp, mask=create_mask(inp))
    opt.zero_grad()
    loss = F.cross_entropy(predictions.transpose(-1, -2), tar)
    loss.backward()
    opt.step()
    return loss.detach()


def fit(model, opt, loader, epochs):
    for _ in range(epochs):
        for inp, tar in loader:
            inp, tar = inp.cuda(), tar.cuda()
            train_step(model, opt, inp, tar)


def adversarial_training(model, opt, loader, epsilon):
    model.train()
    for data, target in loader:
        data, target = data.cuda(), target.cuda()
        adv = earlystop(model, data, target, step_size=epsilon / 4, epsilon=epsilon, perturb_steps=10, tau=1)
        model.train()
        loss = F.cross_entropy(model(adv), target)
        opt.zero_grad()
        loss.backward()
        opt.step()


def decoder_attention():
    return FullAttention(mask_flag=True)
