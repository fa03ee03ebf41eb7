"""Host tensors made in loops that step nothing (torch-fix48): a loop that runs a model every pass (a
sampler's denoising steps, a reranking evaluation) is `high` (torch-fix50; `medium` since torch-fix48); a handful of examples written at an
epoch's end (`if k >= 5: break`) stays `low`."""

import torch


def sample_from_model(generator, x_init, n_time):
    x = x_init
    with torch.no_grad():
        for i in reversed(range(n_time)):
            t = torch.full((x.size(0),), i, dtype=torch.int64).to(x.device)  # expect: PP506 high
            x = generator(x, t)
    return x


def log_examples(model, mels, writer, epoch):
    with torch.no_grad():
        for k in range(len(mels)):
            noise = torch.randn(1, 64, mels.size(-1)).to(mels.device)  # expect: PP506 low
            writer.add_audio(f"eval/y{k}", model(noise), epoch)
            if k >= 5:
                break
