from .tiny import TinyDetector


def build_model(num_classes, trainable=False):
    return TinyDetector(num_classes, trainable=trainable)
