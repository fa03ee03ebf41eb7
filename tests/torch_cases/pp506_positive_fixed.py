# torch-fix17: host tensors that are the same every step, moved under `if x.is_cuda:` (PointNet's STN),
# picked by index from a host eye (PointNet++'s to_categorical), a causal mask reshaped on the host, and
# a beam search's `.type_as(encoder_outputs)`
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable


class STNkd(nn.Module):
    def __init__(self, k=64):
        super().__init__()
        self.k = k
        self.fc3 = nn.Linear(256, k * k)

    def forward(self, x):
        batchsize = x.size()[0]
        x = self.fc3(x)
        iden = torch.from_numpy(np.eye(self.k).flatten().astype(np.float32)).view(1, -1).repeat(batchsize, 1)
        if x.is_cuda:
            iden = iden.cuda()  # expect: PP506 high
        return (x + iden).view(-1, self.k, self.k)


class Decoder(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.device = device
        self.proj = nn.Linear(512, 512)

    def make_trg_mask(self, trg):
        n = trg.shape[1]
        return torch.tril(torch.ones(n, n)).type(torch.ByteTensor).to(self.device)  # expect: PP506 high

    def forward(self, trg, memory):
        return self.proj(memory) * self.make_trg_mask(trg).unsqueeze(-1)

    def recognize_beam(self, encoder_outputs, maxlen, beam):
        hyps = [{"yseq": torch.ones(1, 1).type_as(encoder_outputs).long()}]
        for _i in range(maxlen):
            kept = []
            for hyp in hyps:
                ys = hyp["yseq"]
                scores = F.log_softmax(self.proj(encoder_outputs), dim=-1)
                best, ids = torch.topk(scores[0, -1], beam)
                for j in range(beam):
                    yseq = torch.ones(1, 1 + ys.size(1)).type_as(encoder_outputs)  # expect: PP506 low
                    new = {"yseq": yseq.long()}
                    new["yseq"][:, : ys.size(1)] = ys
                    new["yseq"][:, ys.size(1)] = int(ids[j])  # expect: PP509 medium
                    kept.append(new)
            hyps = kept[:beam]
        return hyps


def to_categorical(y, num_classes):
    new_y = torch.eye(num_classes)[y.cpu().data.numpy(),]  # expect: PP501
    if y.is_cuda:
        return new_y.cuda()  # expect: PP506 high
    return new_y


def train(classifier, loader, optimizer):
    for points, label, target in loader:
        points, label, target = points.cuda(), label.cuda(), target.cuda()
        seg_pred = classifier(points, to_categorical(label, 16))
        loss = F.nll_loss(seg_pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


class Protonet(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def loss(self, sample):
        xq = sample["xq"]
        n_class, n_query = xq.size(0), xq.size(1)
        target_inds = torch.arange(0, n_class).view(n_class, 1, 1).expand(n_class, n_query, 1).long()
        target_inds = Variable(target_inds, requires_grad=False)
        if xq.is_cuda:
            target_inds = target_inds.cuda()  # expect: PP506 high
        log_p_y = F.log_softmax(self.encoder(xq), dim=-1)
        return -log_p_y.gather(2, target_inds).mean()

    def ewc_loss(self, cuda=False):
        try:
            return sum(
                (getattr(self, f"{n}_fisher") * (p - getattr(self, f"{n}_mean")) ** 2).sum() for n, p in []
            )
        except AttributeError:
            return Variable(torch.zeros(1)).cuda() if cuda else Variable(torch.zeros(1))  # expect: PP506 high
