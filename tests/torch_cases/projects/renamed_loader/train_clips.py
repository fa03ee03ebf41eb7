import torch
from audio import Clips, DataLoader


def main(files, model, optimizer):
    device = torch.device("cuda")
    model.to(device)
    clips = DataLoader(Clips(files), batch_size=16, shuffle=True, num_workers=4)  # expect: PP505
    for clip in clips:
        loss = model(clip.to(device)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
