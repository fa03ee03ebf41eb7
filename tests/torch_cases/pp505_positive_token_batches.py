# GLUE-style fine-tuning: the collate pads token ids with a tokenizer, a few KB a batch (hold-out 8's
# accelerate examples): the loaders are still reported, a level below the rule's own
import torch
from datasets import load_dataset
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, AutoTokenizer

device = torch.device("cuda")
tokenizer = AutoTokenizer.from_pretrained("bert-base-cased")
datasets = load_dataset("glue", "mrpc")


def collate_fn(examples):
    return tokenizer.pad(examples, padding="longest", return_tensors="pt")


train_dataloader = DataLoader(  # expect: PP504 low  # expect: PP505 low
    datasets["train"], shuffle=True, collate_fn=collate_fn, batch_size=16
)
model = AutoModelForSequenceClassification.from_pretrained("bert-base-cased").to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
for _epoch in range(3):
    model.train()
    for batch in train_dataloader:
        batch = batch.to(device)
        outputs = model(**batch)
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
