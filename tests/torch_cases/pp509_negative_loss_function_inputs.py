def get_mask(source, source_lengths):
    # called only from the evaluation below, with CPU tensors
    B, _, T = source.size()
    mask = source.new_ones((B, 1, T))
    for i in range(B):
        mask[i, :, source_lengths[i] :] = 0
    return mask


def evaluate_loss(source, estimate_source, source_lengths):
    mask = get_mask(source.cpu(), source_lengths.cpu())
    return (estimate_source.cpu() * mask).mean()
