from os import listdir
from os.path import join

import torch.utils.data as data
from utils import load_img


class FolderPairs(data.Dataset):
    def __init__(self, image_dir):
        self.a_path, self.b_path = join(image_dir, "a"), join(image_dir, "b")
        self.names = sorted(listdir(self.a_path))

    def __getitem__(self, index):
        a = load_img(join(self.a_path, self.names[index]))
        b = load_img(join(self.b_path, self.names[index]))
        return a, b

    def __len__(self):
        return len(self.names)
