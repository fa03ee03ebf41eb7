import torch
from torch import nn

from . import utils


def train(args, ner_model, crit, dataset_loader, epochs):
    optimizer = torch.optim.SGD(ner_model.parameters(), lr=args.lr)
    for epoch in range(epochs):
        epoch_loss = torch.zeros((), device="cuda")
        ner_model.train()
        for step, (feature, tg, mask) in enumerate(dataset_loader):
            feature, tg, mask = feature.cuda(), tg.cuda(), mask.cuda()
            ner_model.zero_grad()
            scores = ner_model(feature)
            loss = crit(scores, tg, mask)
            loss.backward()
            nn.utils.clip_grad_norm_(ner_model.parameters(), args.clip_grad)
            optimizer.step()
            epoch_loss += loss.detach()
            if step % args.log_every == 0:
                print(step, utils.to_scalar(loss))
        utils.adjust_learning_rate(optimizer, args.lr / (1 + (epoch + 1) * args.lr_decay))
        print(epoch, utils.to_np(epoch_loss))
