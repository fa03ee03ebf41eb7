"""The same script whose loader goes to a star-imported def that only counts its batches: nothing is
copied to the GPU."""

import torch
from dataloader import *  # noqa: F403
from model import *  # noqa: F403
from summary import *  # noqa: F403
from torch.utils import data


def main(args):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    devset = UtteranceDataset(list_ids=args.dev_list, base_dir=args.dev_dir)  # noqa: F405
    devset_gen = data.DataLoader(
        devset, batch_size=args.bs, shuffle=True, drop_last=True, num_workers=args.nb_worker
    )
    model = SpeakerNet(args.model).to(device)  # noqa: F405
    print(count_utterances(db_gen=devset_gen, model=model))  # noqa: F405
