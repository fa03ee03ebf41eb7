# Lists of values the step computes (a parsed number, a range up to a data value), not literals or sizes:
# the values must cross anyway.
import torch


class MarginLoss(torch.nn.Module):
    def forward(self, inputs, lengths, margin):
        cap = torch.tensor([float(margin)]).cuda()
        keep = torch.tensor([x for x in range(int(lengths.max()))]).to(inputs.device)
        return torch.clamp(torch.index_select(inputs, index=keep, dim=1), max=cap).mean()
