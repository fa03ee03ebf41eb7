from scenes import ChangeScenes
from torch.utils.data import DataLoader


def get_loaders(args):
    splits = {"train": ChangeScenes(args.root, "train"), "val": ChangeScenes(args.root, "val")}
    loaders = {
        x: DataLoader(splits[x], batch_size=args.batch_size, shuffle=True, num_workers=4)  # expect: PP505
        for x in ["train", "val"]
    }
    return loaders
