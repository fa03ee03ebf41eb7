"""Another module named utils, outside the package: `from . import utils` in model/ does not load it."""


def to_scalar(var):
    return float(var)
