"""torch-fix104: a recorder class made by a builder def (RESA's `build_recorder(cfg)`), whose loss-stats
update copies every loss term to the host."""


class Recorder:
    def __init__(self, cfg):
        self.cfg = cfg
        self.loss_stats = {}
        self.step = 0

    def update_loss_stats(self, loss_dict):
        for k, v in loss_dict.items():
            self.loss_stats.setdefault(k, []).append(v.detach().cpu())


def build_recorder(cfg):
    return Recorder(cfg)
