import torch.nn.functional as F


class BayesNet:
    def __init__(self, model, optimizer, n_batches):
        self.model = model
        self.optimizer = optimizer
        self.n_batches = n_batches

    def fit(self, x, y, samples=1):
        x, y = x.cuda(), y.cuda()
        self.optimizer.zero_grad()
        if samples == 1:
            out, log_q, log_p = self.model(x)
            nll = F.cross_entropy(out, y, reduction="sum")
            kl = (log_q - log_p) / self.n_batches
        else:
            nll_cum = 0
            kl_cum = 0
            for _ in range(samples):
                out, log_q, log_p = self.model(x, sample=True)
                nll_i = F.cross_entropy(out, y, reduction="sum")
                kl_i = (log_q - log_p) / self.n_batches
                nll_cum = nll_cum + nll_i
                kl_cum = kl_cum + kl_i
            nll = nll_cum / samples
            kl = kl_cum / samples
        loss = kl + nll
        loss.backward()
        self.optimizer.step()
        return kl.detach(), nll.detach()
