from .yolo_tiny import YoloTiny


def build_model(num_classes, trainable=False):
    return YoloTiny(num_classes, trainable=trainable)
