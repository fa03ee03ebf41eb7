"""A speaker-embedding script: its data set, model and training defs all come in through star imports;
the loader goes to `train_model` by keyword, and the loop that copies its batches is in trainer.py."""

import torch
from dataloader import *  # noqa: F403
from model import *  # noqa: F403
from torch.utils import data
from trainer import *  # noqa: F403


def main(args):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    devset = UtteranceDataset(list_ids=args.dev_list, base_dir=args.dev_dir)  # noqa: F405
    devset_gen = data.DataLoader(  # expect: PP505
        devset, batch_size=args.bs, shuffle=True, drop_last=True, num_workers=args.nb_worker
    )
    model = SpeakerNet(args.model).to(device)  # noqa: F405
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = {"cce": torch.nn.CrossEntropyLoss()}
    for epoch in range(args.epoch):
        train_model(  # noqa: F405
            model=model,
            db_gen=devset_gen,
            optimizer=optimizer,
            epoch=epoch,
            device=device,
            criterion=criterion,
        )
