import torch
import torch.nn as nn

device = torch.device("cuda")


class RNN(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.rnn = nn.LSTM(10, hidden_size)

    def forward(self, x):
        h0 = torch.zeros(1, x.size(1), self.hidden_size, device=x.device)
        c0 = x.new_zeros(1, x.size(1), self.hidden_size)
        return self.rnn(x, (h0, c0))


def translate(model, sentences, vocab):
    results = []
    for tokens in sentences:
        ids = torch.LongTensor([vocab[t] for t in tokens]).to(device)
        results.append(model(ids.unsqueeze(1)))
    return results


mask = torch.ones(10, 10).to(device)
dtype_only = [torch.zeros(3).to(torch.float16) for _ in range(4)]


def train_with_history(model, loader, optimizer):
    """A tensor built from a list the loop extends: its data changes every step, so it is built per step."""
    seen = [0.0]
    for x, y in loader:
        prior = torch.tensor(seen).to(device)
        loss = nn.functional.mse_loss(model(x.to(device)).mean() + prior.mean(), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        seen.append(float(len(seen)))
