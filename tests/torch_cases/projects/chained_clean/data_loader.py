from torch.utils import data


def get_loader(image_path, batch_size, num_workers=2):
    dataset = ImageFolder(image_path)
    return data.DataLoader(dataset=dataset, batch_size=batch_size, shuffle=True, num_workers=num_workers)


class ImageFolder(data.Dataset):
    def __init__(self, root):
        self.root = root
