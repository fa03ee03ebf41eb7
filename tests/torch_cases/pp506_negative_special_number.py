# Lists of values the step computes (a parsed number, a range up to a data value), not literals or sizes:
# the values must cross anyway.
import torch


class MarginLoss(torch.nn.Module):
    def forward(self, inputs, lengths, margin):
        cap = torch.tensor([float(margin)]).cuda()
        keep = torch.tensor([x for x in range(int(lengths.max()))]).to(inputs.device)
        return torch.clamp(torch.index_select(inputs, index=keep, dim=1), max=cap).mean()


def train_captions(train_loader, model, optimizer, device):
    # the batch's own captions: new text every step, tokenized where the data is
    import clip

    for images, captions in train_loader:
        text_tokens = clip.tokenize(captions).to(device)
        loss = model(images.to(device), text_tokens).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
