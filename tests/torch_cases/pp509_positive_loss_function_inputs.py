import torch


def cal_loss(source, estimate_source, source_lengths):
    mask = get_mask(source, source_lengths)
    estimate_source = estimate_source * mask
    snr = torch.sum(source * estimate_source, dim=2)
    best = torch.argmax(snr, dim=1)
    return -snr.mean(), reorder(estimate_source, best)


def get_mask(source, source_lengths):
    B, _, T = source.size()
    mask = source.new_ones((B, 1, T))
    for i in range(B):
        mask[i, :, source_lengths[i] :] = 0  # expect: PP509
    return mask


def reorder(source, perm):
    B, C, _ = source.size()
    out = torch.zeros_like(source)
    for b in range(B):
        for c in range(C):
            out[b, c] = source[b, perm[b][c]]  # expect: PP509
    return out


if __name__ == "__main__":
    source = torch.randint(4, (2, 3, 32))
    estimate = torch.randint(4, (2, 3, 32))
    lengths = torch.LongTensor([32, 20])
    print(cal_loss(source, estimate, lengths))
