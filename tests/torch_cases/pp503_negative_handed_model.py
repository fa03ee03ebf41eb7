"""A model handed to a def that opens no_grad itself, and a chatbot's evaluation loop whose caller turns
autograd off with `torch.set_grad_enabled(False)` before calling it."""

import random

import torch


def apply_model(model, batch):
    with torch.no_grad():
        return model(batch.cuda()).argmax(-1).cpu()


def label_all(model, batches):
    model.eval()
    return [apply_model(model, batch) for batch in batches for _ in range(2)]


def label_loop(model, batches):
    model.eval()
    out = []
    for batch in batches:
        out.append(apply_model(model, batch))
    return out


def evaluate(encoder, decoder, sentence):
    inputs = torch.LongTensor([sentence]).transpose(0, 1).cuda()
    outputs, hidden = encoder(inputs)
    return decoder(hidden, outputs).argmax(-1).tolist()


def evaluate_randomly(encoder, decoder, pairs, n=10):
    for _ in range(n * 100):
        pair = random.choice(pairs)
        print(evaluate(encoder, decoder, pair[0]))


def run_test(encoder, decoder, pairs):
    torch.set_grad_enabled(False)
    encoder.train(False)
    decoder.train(False)
    encoder = encoder.cuda()
    decoder = decoder.cuda()
    evaluate_randomly(encoder, decoder, pairs)
