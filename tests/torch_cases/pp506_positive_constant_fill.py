"""A tensor built from a comprehension of one constant over `range(...)` (`[SOS_token for _ in
range(batch_size)]`, the value imported from the project's vocabulary module) is a constant fill, made on
the host and moved on every training step (torch-fix50); a comprehension over the batch's own words is
its data."""

import torch
from load import SOS_token

device = torch.device("cuda")


def train(input_variable, lengths, target_variable, encoder, decoder, optimizer, batch_size, words):
    optimizer.zero_grad()
    input_variable = input_variable.to(device)
    target_variable = target_variable.to(device)
    encoder_outputs, hidden = encoder(input_variable, lengths)
    decoder_input = torch.LongTensor([[SOS_token for _ in range(batch_size)]])
    decoder_input = decoder_input.to(device)  # expect: PP506 high
    word_ids = torch.LongTensor([[len(w) for w in words]]).to(device)
    loss = decoder(decoder_input, hidden, encoder_outputs, target_variable, word_ids)
    loss.backward()
    optimizer.step()
    return loss.detach()


def train_iters(pairs, encoder, decoder, optimizer, batch_size, n_iteration):
    losses = []
    for iteration in range(n_iteration):
        inputs, lengths, targets, words = pairs[iteration]
        losses.append(train(inputs, lengths, targets, encoder, decoder, optimizer, batch_size, words))
    return losses
