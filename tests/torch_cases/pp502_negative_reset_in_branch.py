"""torch-fix41 (tuned on hold-out 15): totals that hold no history across steps. bubbliiiing's CenterNet
resets its per-head sums in a branch of every step before summing the hourglass heads' losses; NCF's
step helper returns `loss` after rebinding it to `loss.item()`."""

from torch import nn


def fit_one_epoch(model_train, gen, optimizer, focal_loss, reg_l1_loss, backbone):
    total_c_loss = 0
    for batch_images, batch_hms, batch_whs, batch_regs, masks in gen:
        optimizer.zero_grad()
        if backbone == "resnet50":
            hm, wh, offset = model_train(batch_images)
            c_loss = focal_loss(hm, batch_hms)
            loss = c_loss + reg_l1_loss(wh, batch_whs, masks) + reg_l1_loss(offset, batch_regs, masks)
            total_c_loss += c_loss.item()  # expect: PP501
        else:
            outputs = model_train(batch_images)
            loss = 0
            c_loss_all = 0
            r_loss_all = 0
            for output in outputs:
                c_loss = focal_loss(output["hm"].sigmoid(), batch_hms)
                r_loss = reg_l1_loss(output["wh"], batch_whs, masks)
                loss += c_loss + r_loss
                c_loss_all += c_loss
                r_loss_all += r_loss
            total_c_loss += c_loss_all.item() / len(outputs)
        loss.backward()
        optimizer.step()
    return total_c_loss


class Engine:
    def __init__(self, model, opt):
        self.model, self.opt = model, opt
        self.crit = nn.BCELoss()

    def train_single_batch(self, users, items, ratings):
        users, items, ratings = users.cuda(), items.cuda(), ratings.cuda()
        self.opt.zero_grad()
        loss = self.crit(self.model(users, items).view(-1), ratings)
        loss.backward()
        self.opt.step()
        loss = loss.item()  # expect: PP501
        return loss

    def train_an_epoch(self, train_loader):
        self.model.train()
        total_loss = 0
        for users, items, ratings in train_loader:
            loss = self.train_single_batch(users, items, ratings.float())
            total_loss += loss
        return total_loss
