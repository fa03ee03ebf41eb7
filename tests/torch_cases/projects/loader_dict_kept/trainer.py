import torch


class ChangeTrainer:
    def __init__(self, args, net, dataloaders):
        self.device = torch.device("cuda")
        self.net = net.to(self.device)
        self.dataloaders = dataloaders
        self.optimizer = torch.optim.SGD(net.parameters(), lr=args.lr)
        self.epochs = args.epochs

    def _forward_pass(self, batch):
        a = batch["A"].to(self.device)
        b = batch["B"].to(self.device)
        return self.net(a, b)

    def train_models(self):
        for _epoch in range(self.epochs):
            self.net.train()
            for _batch_id, batch in enumerate(self.dataloaders["train"], 0):
                loss = self._forward_pass(batch).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
