import torch


def count_utterances(db_gen, model=None):
    total = 0
    for m_batch, _ in db_gen:
        total += torch.numel(m_batch[:, 0])
    return total
