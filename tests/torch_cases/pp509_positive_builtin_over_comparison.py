# Python's `sum` over a comparison of device tensors in an evaluation loop (BiC's `test`, a federated server's
# `test`, hold-out 48), and `min`/`max` over rows picked from a device similarity matrix in a loss's
# per-sample loop (SDC-IL's `ms_loss`): each iterates a device tensor one 0-d element at a time
import torch
from torch import nn


class Trainer:
    @torch.no_grad()
    def test(self, testdata):
        self.model.eval()
        correct = 0
        for _i, (image, label) in enumerate(testdata):
            image = image.cuda()
            label = label.view(-1).cuda()
            p = self.model(image)
            pred = p.argmax(dim=-1)
            correct += sum(pred == label)  # expect: PP509
        return correct


def server_test(model, test_loader, device):
    hits = 0
    for _step, (x, y) in enumerate(test_loader):
        with torch.no_grad():
            b_x = x.to(device)
            b_y = y.to(device)
            pred_y = torch.max(model(b_x), 1)[1].data.squeeze()
            hits = hits + sum(pred_y == b_y)  # expect: PP509
    return hits


class MultiSimilarityLoss(nn.Module):
    def forward(self, feats, labels):
        sim_mat = torch.matmul(feats, torch.t(feats))
        loss = []
        for i in range(feats.size(0)):
            pos_pair_ = sim_mat[i][labels == labels[i]]
            neg_pair_ = sim_mat[i][labels != labels[i]]
            neg_pair = neg_pair_[neg_pair_ + 0.1 > min(pos_pair_)]  # expect: PP509
            loss.append(neg_pair.sum())
        return sum(loss)
