import torch
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
SOS_token = 1


def train(input_variable, lengths, target_variable, max_target_len, encoder, decoder, optimizer, batch_size):
    """The next input stays on the device (`topi.view(1, -1)`); the start tokens are Python numbers, filled on the
    device (torch-fix103: the host comprehension moved every step is PP506's)."""
    optimizer.zero_grad()
    encoder_outputs, encoder_hidden = encoder(input_variable, lengths)
    decoder_input = torch.full((1, batch_size), SOS_token, dtype=torch.long, device=device)
    decoder_hidden = encoder_hidden[: decoder.n_layers]
    loss = 0
    for t in range(max_target_len):
        decoder_output, decoder_hidden = decoder(decoder_input, decoder_hidden, encoder_outputs)
        _, topi = decoder_output.topk(1)
        decoder_input = topi.view(1, -1)
        loss += F.cross_entropy(decoder_output, target_variable[t])
    loss.backward()
    optimizer.step()
    return loss / max_target_len


def positional_table(pad_size, embed, ids):
    words = ids.tolist()
    table = torch.tensor([[pad_size / 10000.0 ** (i // 2 * 2.0 / embed) for i in range(embed)]])
    return table, torch.LongTensor([[words[i] for i in range(len(words))]])
