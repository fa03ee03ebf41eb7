import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset
from transformers import GPT2Tokenizer


class GPTDatasetV1(Dataset):
    def __init__(self, txt, tokenizer, max_length, stride):
        self.input_ids = []
        self.target_ids = []
        token_ids = tokenizer.encode(txt, allowed_special={"<|endoftext|>"})
        for i in range(0, len(token_ids) - max_length, stride):
            self.input_ids.append(torch.tensor(token_ids[i : i + max_length]))
            self.target_ids.append(torch.tensor(token_ids[i + 1 : i + max_length + 1]))

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, idx):
        return self.input_ids[idx], self.target_ids[idx]


def create_dataloader_v1(txt, batch_size=4, max_length=256, stride=128, shuffle=True, num_workers=0):
    tokenizer = GPT2Tokenizer.from_pretrained("gpt2")
    dataset = GPTDatasetV1(txt, tokenizer, max_length, stride)
    dataloader = DataLoader(  # expect: PP505
        dataset, batch_size=batch_size, shuffle=shuffle, drop_last=True, num_workers=num_workers
    )
    return dataloader


def load_data(batch_size=128, suffix=""):
    feat_train = torch.FloatTensor(np.load("feat_train" + suffix + ".npy"))
    edges_train = torch.LongTensor(np.load("edges_train" + suffix + ".npy"))
    train_data = TensorDataset(feat_train, edges_train)
    train_data_loader = DataLoader(train_data, batch_size=batch_size)  # expect: PP505
    return train_data_loader, feat_train.max()
