import torch
from torch.utils.data import Dataset, TensorDataset


class NLIDataset(Dataset):
    def __init__(self, data, max_length=None):
        self.data = data
        self.lengths = [len(seq) for seq in data["premises"]]
        self.max_length = max_length or max(self.lengths)

    def __len__(self):
        return len(self.lengths)

    def __getitem__(self, index):
        return {
            "premise": self.data["premises"][index],
            "length": min(self.lengths[index], self.max_length),
            "label": self.data["labels"][index],
        }


class BertProcessor:
    def create_features(self, examples, max_seq_len):
        return [example.encode(max_seq_len) for example in examples]

    def create_dataset(self, features):
        input_ids = torch.tensor([f.input_ids for f in features], dtype=torch.long)
        label_ids = torch.tensor([f.label_id for f in features], dtype=torch.long)
        return TensorDataset(input_ids, label_ids)
