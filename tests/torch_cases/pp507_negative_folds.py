# cross-validation (hold-out 8's accelerate example): each fold loads a fresh pretrained model, so moving it
# to the device and making its optimizer once per fold is required, not set-up repeated per step
import torch
from transformers import AutoModelForSequenceClassification

device = torch.device("cuda")


def cross_validate(folds, get_fold_dataloaders):
    for train_idxs, valid_idxs in folds:
        train_dataloader = get_fold_dataloaders(train_idxs, valid_idxs)
        model = AutoModelForSequenceClassification.from_pretrained("bert-base-cased", return_dict=True)
        model = model.to(device)
        optimizer = torch.optim.AdamW(params=model.parameters(), lr=2e-5)
        for batch in train_dataloader:
            outputs = model(**batch)
            outputs.loss.backward()
            optimizer.step()
            optimizer.zero_grad()
