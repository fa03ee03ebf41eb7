# AdaContrast's instance loss (hold-out 38): the fill value for `torch.where` is a one-element tensor made on
# the host and copied on every loss call; `float("-inf")` is as literal as `0.5`.
import math

import clip
import torch
import torch.nn.functional as F


def instance_loss(logits_ins, pseudo_labels, mem_labels):
    mask = torch.ones_like(logits_ins, dtype=torch.bool)
    mask[:, 1:] = pseudo_labels.reshape(-1, 1) != mem_labels
    logits_ins = torch.where(mask, logits_ins, torch.tensor([float("-inf")]).cuda())  # expect: PP506 high
    angle = logits_ins * torch.tensor([math.pi]).cuda()  # expect: PP506 high
    return F.cross_entropy(angle, torch.zeros(len(angle), dtype=torch.long, device=angle.device))


def train(model, loader, optimizer, mem_labels):
    for x, _ in loader:
        logits, pseudo = model(x.cuda())
        loss = instance_loss(logits, pseudo, mem_labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class UnbiasedKnowledgeDistillationLoss(torch.nn.Module):
    # MiB (hold-out 39): the new classes' indices, a `range` of sizes, listed on the host every step
    def forward(self, inputs, targets):
        idx = torch.tensor([0] + [x for x in range(targets.shape[1], inputs.shape[1])])
        new_bkg_idx = idx.to(inputs.device)  # expect: PP506 high
        return torch.index_select(inputs, index=new_bkg_idx, dim=1).mean()


def train_prompter(train_loader, texts, model, prompter, optimizer, device):
    # visual_prompting (hold-out 38): the same class prompts tokenized on the host and copied every step
    for images, target in train_loader:
        images, target = images.to(device), target.to(device)
        text_tokens = clip.tokenize(texts).to(device)  # expect: PP506 high
        logits, _ = model(prompter(images), text_tokens)
        loss = F.cross_entropy(logits, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
