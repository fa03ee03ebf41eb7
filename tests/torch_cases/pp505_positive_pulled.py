"""Semi-supervised training (FixMatch/MixMatch shape): batches pulled by hand from two loaders."""

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, RandomSampler


def train(args, labeled_trainloader, unlabeled_trainloader, model, optimizer):
    labeled_iter = iter(labeled_trainloader)
    unlabeled_iter = iter(unlabeled_trainloader)
    model.train()
    for _ in range(args.eval_step):
        try:
            inputs_x, targets_x = labeled_iter.next()
        except StopIteration:
            labeled_iter = iter(labeled_trainloader)
            inputs_x, targets_x = labeled_iter.next()
        try:
            (inputs_u_w, inputs_u_s), _ = next(unlabeled_iter)
        except StopIteration:
            unlabeled_iter = iter(unlabeled_trainloader)
            (inputs_u_w, inputs_u_s), _ = next(unlabeled_iter)
        inputs = torch.cat((inputs_x, inputs_u_w, inputs_u_s)).to(args.device)
        targets_x = targets_x.to(args.device)
        logits = model(inputs)
        loss = F.cross_entropy(logits[: len(targets_x)], targets_x)
        loss.backward()
        optimizer.step()
        model.zero_grad()


def main(args, labeled_dataset, unlabeled_dataset, model, optimizer):
    labeled_trainloader = DataLoader(  # expect: PP505 medium
        labeled_dataset,
        sampler=RandomSampler(labeled_dataset),
        batch_size=args.batch_size,
        num_workers=args.num_workers,
        drop_last=True,
    )
    unlabeled_trainloader = DataLoader(  # expect: PP505 medium
        unlabeled_dataset,
        sampler=RandomSampler(unlabeled_dataset),
        batch_size=args.batch_size * args.mu,
        num_workers=args.num_workers,
        drop_last=True,
    )
    model.to(args.device)
    train(args, labeled_trainloader, unlabeled_trainloader, model, optimizer)
