import torch.nn as nn
from utils.utils import *  # noqa: F403  (utils.utils imports torch: it hands `torch` over)


class YOLOLayer(nn.Module):
    def __init__(self, nC, nID):
        super().__init__()
        self.nC = nC
        self.classifier = nn.Linear(512, nID)
        self.IDLoss = nn.CrossEntropyLoss(ignore_index=-1)

    def forward(self, p_emb, targets=None):
        if targets is not None:
            tids = targets[:, 1].long()
            lid = torch.Tensor(1).fill_(0).squeeze().cuda()  # noqa: F405  # expect: PP506 high
            if len(p_emb) > 1:
                lid = self.IDLoss(self.classifier(p_emb), tids)
            return lid
        p_cls = torch.zeros(p_emb.size(0), 1).cuda()  # noqa: F405  # expect: PP506 high
        return torch.cat([p_cls, p_emb], dim=-1)  # noqa: F405
