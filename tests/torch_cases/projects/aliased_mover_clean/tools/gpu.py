"""(torch-fix64) The clean twin: the helper moves its argument only when asked (`enabled` defaults to False), so a
label tensor handed to it stays where it was made."""


def as_gpu(tensor, enabled=False):
    """The tensor on the GPU when `enabled`."""
    if enabled:
        tensor = tensor.cuda()
    return tensor
