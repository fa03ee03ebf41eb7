import torch


class ChangeTrainer:
    def __init__(self, args, net, dataloaders):
        self.net = net
        self.dataloaders = dataloaders
        self.optimizer = torch.optim.SGD(net.parameters(), lr=args.lr)
        self.epochs = args.epochs

    def train_models(self):
        for _epoch in range(self.epochs):
            self.net.train()
            for _batch_id, batch in enumerate(self.dataloaders["train"], 0):
                loss = self.net(batch["A"], batch["B"]).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
