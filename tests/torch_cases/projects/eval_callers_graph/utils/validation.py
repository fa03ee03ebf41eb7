"""The validation def of projects/eval_callers, whose caller in utils/train.py here holds no no_grad: reported."""

import torch
import torch.nn.functional as F


def validate(generator, valloader, stft, device):
    generator.eval()
    mel_loss = 0.0
    for mel, audio in valloader:
        mel, audio = mel.to(device), audio.to(device)
        fake_audio = generator(mel)[:, :, : audio.size(2)]  # expect: PP503
        loss = F.l1_loss(stft(fake_audio.squeeze(1)), stft(audio.squeeze(1)))
        mel_loss += loss.item()  # expect: PP501 medium
    return mel_loss / len(valloader.dataset)


def spectrogram(audio):
    return torch.stft(audio, 1024, return_complex=True).abs()
