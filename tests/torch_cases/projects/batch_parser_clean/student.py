from torch import nn


class Student(nn.Module):
    def __init__(self, hparams):
        super().__init__()
        self.proj = nn.Linear(hparams.n_in, hparams.n_mel_channels)

    def parse_batch(self, batch):
        text_padded, input_lengths, mel_padded, gate_padded = batch
        return (text_padded.long(), input_lengths.long()), mel_padded.float()

    def forward(self, inputs):
        return self.proj(inputs[0].float())
