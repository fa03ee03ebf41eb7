from torch.utils import data


def get_loader(image_path, batch_size, workers=2, mode="train"):
    """Builds and returns the loader of one split."""
    dataset = ImageFolder(image_path, mode=mode)
    return data.DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=workers)  # expect: PP505


class ImageFolder(data.Dataset):
    def __init__(self, root, mode):
        self.root, self.mode = root, mode
