"""torch-fix41: a total bound once before the loop and summed in a branch of each step keeps every step's
graph (the reset is outside the step), and a step helper whose `return loss` is the tensor itself."""

from torch import nn


def fit_one_epoch(model_train, gen, optimizer, focal_loss, backbone):
    c_loss_all = 0
    for batch_images, batch_hms in gen:
        optimizer.zero_grad()
        if backbone == "resnet50":
            loss = focal_loss(model_train(batch_images), batch_hms)
        else:
            loss = 0
            for output in model_train(batch_images):
                c_loss = focal_loss(output["hm"].sigmoid(), batch_hms)
                loss += c_loss
                c_loss_all += c_loss  # expect: PP502
        loss.backward()
        optimizer.step()
    return c_loss_all


class Engine:
    def __init__(self, model, opt):
        self.model, self.opt = model, opt
        self.crit = nn.BCELoss()

    def train_single_batch(self, users, items, ratings):
        self.opt.zero_grad()
        loss = self.crit(self.model(users.cuda(), items.cuda()).view(-1), ratings.cuda())
        loss.backward()
        self.opt.step()
        value = loss.item()  # expect: PP501
        print(value)
        return loss

    def train_an_epoch(self, train_loader):
        self.model.train()
        total_loss = 0
        for users, items, ratings in train_loader:
            loss = self.train_single_batch(users, items, ratings.float())
            total_loss += loss  # expect: PP502
        return total_loss
