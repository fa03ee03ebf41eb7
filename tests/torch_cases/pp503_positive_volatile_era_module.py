"""PyTorch 0.3-era scripts (the module writes `volatile=` somewhere): their evaluation loops that the
volatile check does not silence are reported at medium, not high (torch-fix97)."""

import torch
from torch.autograd import Variable

model = torch.load("lm.pt")
model.eval()
hidden = model.init_hidden(1)
word = Variable(torch.rand(1, 1).mul(10000).long(), volatile=True)

with open("out.txt", "w") as out:
    for _ in range(1000):
        output, hidden = model(word, hidden)  # expect: PP503 medium
        weights = output.squeeze().data.exp().cpu()
        index = torch.multinomial(weights, 1)[0]
        word.data.fill_(index)
        out.write(str(index))


def decode(nmt, sentences):
    nmt.eval()
    found = []
    for source in sentences:
        found.append(nmt.translate(source))  # expect: PP503 medium
    return found
