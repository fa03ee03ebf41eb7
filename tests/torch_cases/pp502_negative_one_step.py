"""PP502 (torch-fix62) near misses read wrong on hold-out 19: losses listed within one step on purpose, and
totals of values already read to the host."""

import torch
import torch.nn.functional as F


def generator_step(generator, batch, optimizer, best_k, l2_weight):
    obs, gt, seq_start_end = (t.cuda() for t in batch)
    loss = gt.new_zeros(1)
    l2_terms = []
    for _ in range(best_k):  # best-of-k samples of one step: stacked, min-reduced and backpropagated below
        fake = generator(obs, seq_start_end)
        l2_terms.append(l2_weight * F.mse_loss(fake, gt, reduction="none").sum(dim=(0, 2)))
    l2_sum = gt.new_zeros(1)
    stacked = torch.stack(l2_terms, dim=1)
    for start, end in seq_start_end.tolist():
        part = torch.min(stacked[start:end].sum(dim=0))
        l2_sum += part
    loss += l2_sum
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


class Summariser:
    def __init__(self, model):
        self.model = model.cuda()

    def decode_loss(self, enc_out, state, targets, lengths):
        step_losses = []
        x_t = targets[:, 0]
        for t in range(targets.size(1)):  # per time step of one batch: summed into the returned loss
            dist, state = self.model.decoder(self.model.embeds(x_t), state, enc_out)
            step_loss = F.nll_loss(torch.log(dist + 1e-12), targets[:, t], reduction="none")
            step_losses.append(step_loss)
            x_t = torch.multinomial(dist, 1).squeeze(1)
        losses = torch.sum(torch.stack(step_losses, 1), 1)
        mle_loss = torch.mean(losses / lengths)
        return mle_loss


def train_supernet(net, loader, optimizer, criterion, args):
    net = net.cuda()
    for images, labels in loader:
        images, labels = images.cuda(), labels.cuda()
        net.zero_grad()
        loss_of_subnets = []
        for _ in range(args.dynamic_batch_size):  # one loss per sampled subnet, each backpropagated
            net.sample_active_subnet()
            loss = criterion(net(images), labels)
            loss_of_subnets.append(loss)
            loss.backward()
        optimizer.step()
        if len(loss_of_subnets) > args.max_subnets:
            break


def train_text2mel(model, loader, optimizer):
    model = model.cuda()
    running_loss, running_l1_loss = 0.0, 0.0
    for texts, mels in loader:
        l1_loss, att_loss = model(texts.cuda(), mels.cuda())
        loss = l1_loss + att_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss, l1_loss = loss.item(), l1_loss.item()  # expect: PP501
        running_loss += loss
        running_l1_loss += l1_loss
    return running_loss, running_l1_loss
