from .contrastive import ContrastiveModel
from .video import VideoModel


def build_model(cfg):
    return ContrastiveModel(cfg.dim) if cfg.contrastive else VideoModel(cfg.classes)
