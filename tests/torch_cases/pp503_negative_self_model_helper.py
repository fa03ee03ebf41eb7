import torch
import torch.nn.functional as F


def _do_encoder_fwd_pass(model, batch):
    if model.training:
        out = model(batch["x"])
    else:
        with torch.no_grad():
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
            batch = self.encoder.create_inputs(samples, shuffle=False)
            loss = _do_encoder_fwd_pass(self.encoder, batch)
            total = total + loss.detach()
        return total
