"""Batches of token ids handed to the same loop: a few KB a step, which the module's own pass leaves out."""

import torch
from train_utils import train_eval_utils as utils
from transformers import AutoTokenizer

tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")


def main(model, texts, labels, epochs):
    encoded = tokenizer(texts, padding=True, truncation=True, return_tensors="pt")
    dataset = torch.utils.data.TensorDataset(encoded["input_ids"], torch.tensor(labels))
    loader = torch.utils.data.DataLoader(dataset, batch_size=32, shuffle=True, num_workers=2)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    for epoch in range(epochs):
        utils.train_one_epoch(model, optimizer, loader, torch.device("cuda"), epoch)
