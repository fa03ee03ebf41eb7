"""The model is made in each branch (resumed from a checkpoint or not), then handed the loader (ECAPA-TDNN's
`s = ECAPAModel(...)` under `if`/`elif`/`else`)."""

import argparse
import glob

import torch
from models import Classifier, Encoder, load_pretrained
from speaker_model import SpeakerModel
from speakers import SpeakerClips

parser = argparse.ArgumentParser()
parser.add_argument("--initial_model", default="")
args = parser.parse_args()

loader = torch.utils.data.DataLoader(SpeakerClips("train.txt"), batch_size=128, shuffle=True, num_workers=8)
encoder, classifier = Encoder(), Classifier()
saved = sorted(glob.glob("exps/model_*.model"))
if args.initial_model:
    model = SpeakerModel(encoder, classifier, lr=1e-3)
    model.load_parameters(args.initial_model)
elif saved:
    model = SpeakerModel(encoder, classifier, lr=1e-3)
    model.load_parameters(saved[-1])
else:
    model = load_pretrained(args.initial_model)
for epoch in range(1, 81):
    model.train_network(epoch=epoch, loader=loader)
