import model.utils as utils
import torch
from model.crf import LSTMCRF, CRFLoss
from torch import nn


def train(args, dataset_loader, epochs):
    ner_model = LSTMCRF(args.vocab_size, args.tagset_size)
    crit = CRFLoss(args.tagset_size)
    if args.gpu >= 0:
        ner_model.cuda()
        crit.cuda()
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
