"""Loops over a batch's rows PP509 leaves alone now that a helper's parameters take their callers' places
(torch-fix50): each enhanced sample written to a wav file by `wavfile.write` (the wait is the disk's),
the sizes of each cached key or value unpacked from `.size()` (Python numbers, no row of the tensor), and
each source of a separated batch rescaled as a whole column (`estimates[:, k] /= totals[k]`)."""

import os

import torch
from scipy.io import wavfile


def write_samples(enhanced, save_path, iteration):
    for m in range(enhanced.size(0)):
        wav = enhanced[m, 0].cpu().data.numpy()
        wavfile.write(os.path.join(save_path, f"sample_{iteration}-{m}.wav"), 16000, wav)


def dump_samples(generator, loader, save_path):
    with torch.no_grad():
        for iteration, noisy in enumerate(loader):
            enhanced = generator(noisy.cuda())
            write_samples(enhanced, save_path, iteration)


def select_past(past_key_values, beam_width, selected_idx):
    new_key_values = []
    for layer in past_key_values:
        items = []
        for item in layer:
            bsz_and_beam, num_head, seq_len, esz = item.size()
            bsz = int(bsz_and_beam // beam_width)
            item = torch.stack(torch.split(item, beam_width, dim=0))[range(bsz), selected_idx]
            items.append(item)
        new_key_values.append(items)
    return new_key_values


def decode_step(model, input_ids, past_key_values, beam_width):
    output = model(input_ids, past_key_values=past_key_values)
    selected_idx = output.logits[:, -1].argmax(-1)
    return select_past(output.past_key_values, beam_width, selected_idx)


def rescale_sources(estimates, totals):
    for k in range(estimates.shape[1]):
        estimates[:, k, :, :] /= totals[k]
    return estimates


def separate(model, loader, totals):
    with torch.no_grad():
        for mix in loader:
            estimates = model(mix.cuda())
            yield rescale_sources(estimates, totals)
