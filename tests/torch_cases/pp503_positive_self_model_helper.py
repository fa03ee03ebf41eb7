import torch.nn.functional as F


def _do_encoder_fwd_pass(model, batch):
    out = model(batch["x"])
    return F.cross_entropy(out, batch["y"])


class Trainer:
    def __init__(self, encoder, loader):
        self.encoder = encoder
        self.loader = loader

    def validate_nll(self):
        self.encoder.eval()
        total = 0.0
        for samples in self.loader:
            batch = {"x": samples[0].cuda(), "y": samples[1].cuda()}
            loss = _do_encoder_fwd_pass(self.encoder, batch)  # expect: PP503 medium
            total += loss.item()  # expect: PP501
        return total
