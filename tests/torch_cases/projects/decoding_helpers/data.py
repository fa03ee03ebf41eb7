from os.path import join

from dataset import FolderPairs


def get_training_set(root_dir):
    train_dir = join(root_dir, "train")
    return FolderPairs(train_dir)
