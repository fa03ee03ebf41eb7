"""Twin of pp503_positive_volatile_era_module.py without any `volatile=` (or with `volatile=False`): the same
loops are reported at high."""

import torch
from torch.autograd import Variable

model = torch.load("lm.pt")
model.eval()
hidden = model.init_hidden(1)
word = Variable(torch.rand(1, 1).mul(10000).long(), volatile=False)

with open("out.txt", "w") as out:
    for _ in range(1000):
        output, hidden = model(word, hidden)  # expect: PP503 high
        weights = output.squeeze().data.exp().cpu()
        index = torch.multinomial(weights, 1)[0]
        word.data.fill_(index)
        out.write(str(index))


def decode(nmt, sentences):
    nmt.eval()
    found = []
    for source in sentences:
        found.append(nmt.translate(source))  # expect: PP503 high
    return found
