import numpy as np
import soundfile as sf
from torch.utils import data


class UtteranceDataset(data.Dataset):
    def __init__(self, list_ids, base_dir):
        self.list_ids = list_ids
        self.base_dir = base_dir

    def __len__(self):
        return len(self.list_ids)

    def __getitem__(self, index):
        x, _ = sf.read(self.base_dir + self.list_ids[index])
        return np.asarray(x, dtype=np.float32), index
