"""UnivNet's shape (hold-out 16): a validation def that puts the generator in eval mode and runs it over the
loader; its caller in utils/train.py holds `with torch.no_grad():`."""

import torch
import torch.nn.functional as F


def validate(generator, valloader, stft, device):
    generator.eval()
    mel_loss = 0.0
    for mel, audio in valloader:
        mel, audio = mel.to(device), audio.to(device)
        fake_audio = generator(mel)[:, :, : audio.size(2)]
        loss = F.l1_loss(stft(fake_audio.squeeze(1)), stft(audio.squeeze(1)))
        mel_loss += loss.item()  # expect: PP501 medium
    return mel_loss / len(valloader.dataset)


def spectrogram(audio):
    return torch.stft(audio, 1024, return_complex=True).abs()
