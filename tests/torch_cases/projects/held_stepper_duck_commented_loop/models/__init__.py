from models.restore_model import RestoreModel

__all__ = ["RestoreModel"]
