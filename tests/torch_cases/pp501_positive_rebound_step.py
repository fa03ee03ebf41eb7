"""A training-step method rebinds its loss to the host value and returns that (`loss = loss.item(); return
loss`, hold-out 15's neural collaborative filtering engine): the read is in the step method, and the float
the loop prints and sums is no tensor, so the finding points at the `.item()`, not at the `print`."""

import torch


class Engine:
    def __init__(self, model, config):
        self.model = model.cuda()
        self.opt = torch.optim.Adam(model.parameters(), lr=config["lr"])
        self.crit = torch.nn.BCELoss()

    def train_single_batch(self, users, items, ratings):
        users, items, ratings = users.cuda(), items.cuda(), ratings.cuda()
        self.opt.zero_grad()
        ratings_pred = self.model(users, items)
        loss = self.crit(ratings_pred.view(-1), ratings)
        loss.backward()
        self.opt.step()
        loss = loss.item()  # expect: PP501
        return loss

    def train_an_epoch(self, train_loader, epoch_id):
        self.model.train()
        total_loss = 0
        for batch_id, (user, item, rating) in enumerate(train_loader):
            loss = self.train_single_batch(user, item, rating.float())
            print(f"[Training Epoch {epoch_id}] Batch {batch_id}, Loss {loss}")
            total_loss += loss
        return total_loss
