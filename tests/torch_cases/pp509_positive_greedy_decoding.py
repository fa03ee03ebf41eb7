import torch
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
SOS_token = 1


def train(input_variable, lengths, target_variable, max_target_len, encoder, decoder, optimizer, batch_size):
    """The chatbot tutorial's greedy decoding: each next input read one index at a time from the device."""
    optimizer.zero_grad()
    encoder_outputs, encoder_hidden = encoder(input_variable, lengths)
    decoder_input = torch.LongTensor([[SOS_token for _ in range(batch_size)]]).to(device)  # expect: PP506
    decoder_hidden = encoder_hidden[: decoder.n_layers]
    loss = 0
    for t in range(max_target_len):
        decoder_output, decoder_hidden = decoder(decoder_input, decoder_hidden, encoder_outputs)
        _, topi = decoder_output.topk(1)
        decoder_input = torch.LongTensor([[topi[i][0] for i in range(batch_size)]])  # expect: PP509 low
        decoder_input = decoder_input.to(device)
        loss += F.cross_entropy(decoder_output, target_variable[t])
    loss.backward()
    optimizer.step()
    return loss / max_target_len
