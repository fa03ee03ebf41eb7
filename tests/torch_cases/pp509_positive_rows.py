import torch
import torch.nn as nn


class TripletLoss(nn.Module):
    def __init__(self, margin=0.3):
        super().__init__()
        self.ranking_loss = nn.MarginRankingLoss(margin=margin)

    def forward(self, inputs, targets):
        n = inputs.size(0)
        dist = torch.cdist(inputs, inputs)
        mask = targets.expand(n, n).eq(targets.expand(n, n).t())
        dist_ap, dist_an = [], []
        for i in range(n):
            dist_ap.append(dist[i][mask[i]].max().unsqueeze(0))  # expect: PP509
            dist_an.append(dist[i][mask[i] == 0].min().unsqueeze(0))
        dist_ap = torch.cat(dist_ap)
        dist_an = torch.cat(dist_an)
        y = torch.ones_like(dist_an)
        return self.ranking_loss(dist_an, dist_ap, y)


class CRF(nn.Module):
    def __init__(self, tagset_size):
        super().__init__()
        self.tagset_size = tagset_size
        self.transitions = nn.Parameter(torch.randn(tagset_size, tagset_size))

    def _score_sentence(self, feats, tags):
        score = torch.zeros(1)
        for i, feat in enumerate(feats):  # expect: PP509 low
            score = score + self.transitions[tags[i + 1], tags[i]] + feat[tags[i + 1]]
        return score


def knn_indices(rep_pts, pts, k):
    region_idx = []
    for n, qry in enumerate(rep_pts):  # expect: PP509 low
        ref = pts[n]
        dist2 = torch.cdist(qry, ref)
        _, inds = torch.topk(dist2, k, dim=1, largest=False)
        region_idx.append(inds)
    return torch.stack(region_idx, dim=0)


def select_region(pts, pts_idx):
    regions = torch.stack(  # expect: PP509 low
        [pts[n][idx, :] for n, idx in enumerate(torch.unbind(pts_idx, dim=0))], dim=0
    )
    return regions


def train_dqn(model, optimizer, criterion, memory, gamma, steps):
    for _step in range(steps):
        state_batch, reward_batch, next_state_batch, done_batch = memory.sample()
        reward_batch = torch.from_numpy(reward_batch)
        q_values = model(state_batch)
        next_prediction_batch = model(next_state_batch)
        y_batch = torch.cat(  # expect: PP509 low
            tuple(
                reward if done else reward + gamma * torch.max(prediction)
                for reward, done, prediction in zip(
                    reward_batch, done_batch, next_prediction_batch, strict=False
                )
            )
        )
        optimizer.zero_grad()
        loss = criterion(q_values, y_batch)
        loss.backward()
        optimizer.step()
