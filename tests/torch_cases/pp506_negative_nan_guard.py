# review 28 items 1 and 2: fallbacks in the branch a NaN test takes on a failure (the `else` of `if not
# torch.isnan(...)`, of `if torch.isfinite(...).all()`), and an attribute `__init__` makes on the device, read
# through `torch.as_tensor` (which copies nothing).
import torch
import torch.nn as nn

device = torch.device("cuda")


class KoopmanStep(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.proj = nn.Linear(n, n)

    def forward(self, x, y):
        b = x.shape[0]
        solved = torch.linalg.lstsq(x, y).solution
        if not torch.isnan(solved).any():  # expect: PP501 medium (the per-forward read)
            self.K = solved
        else:
            self.K = torch.eye(solved.shape[1]).to(solved.device).unsqueeze(0).repeat(b, 1, 1)
        return torch.bmm(self.proj(x), self.K)


class StableStep(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.proj = nn.Linear(n, n)

    def forward(self, x, y):
        b = x.shape[0]
        solved = torch.linalg.lstsq(x, y).solution
        if torch.isfinite(solved).all():  # expect: PP501 medium (the per-forward read)
            self.K = solved
        else:
            self.K = torch.eye(solved.shape[1]).to(solved.device).unsqueeze(0).repeat(b, 1, 1)
        return torch.bmm(self.proj(x), self.K)


class AnchorHead(nn.Module):
    # anchors made on the device in `__init__`: `torch.as_tensor` hands the same tensor back
    def __init__(self, n):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.anchors = torch.zeros(n, 2, device=device)

    def forward(self, x):
        anchors = torch.as_tensor(self.anchors).to(x.device)
        return self.fc(x) + anchors
