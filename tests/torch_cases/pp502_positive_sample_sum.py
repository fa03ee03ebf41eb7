import torch.nn.functional as F


class BayesNet:
    def __init__(self, model, optimizer, n_batches):
        self.model = model
        self.optimizer = optimizer
        self.n_batches = n_batches

    def fit(self, x, y):
        x, y = x.cuda(), y.cuda()
        self.optimizer.zero_grad()
        out, log_q, log_p = self.model(x)
        loss = F.cross_entropy(out, y, reduction="sum") + (log_q - log_p) / self.n_batches
        loss.backward()
        self.optimizer.step()
        return loss.detach()

    def sample_eval(self, x, y, samples):
        x, y = x.cuda(), y.cuda()
        nll_cum = 0
        for _ in range(samples):
            out, _, _ = self.model(x, sample=True)  # expect: PP503
            nll_cum = nll_cum + F.cross_entropy(out, y, reduction="sum")  # expect: PP502
        return nll_cum.item() / samples
