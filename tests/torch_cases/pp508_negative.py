import torch


def greedy_decode(decoder, hidden, start, max_len=50):
    token = torch.tensor([start])
    words = []
    with torch.no_grad():
        for _ in range(max_len):
            output, hidden = decoder(token.unsqueeze(0), hidden)
            token = output.argmax(-1).squeeze(0)
            words.append(token.item())
    return words


def serve(model, requests):
    with torch.no_grad():
        while True:
            image = requests.get()
            requests.reply(model(image.unsqueeze(0)))


def classify(model, loader):
    with torch.no_grad():
        return [model(batch) for batch, _ in loader]
