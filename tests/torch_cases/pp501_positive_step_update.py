"""Step defs a train.py of another module calls every iteration: one whose backward runs in the model's own
`forward` (it only zeroes and steps the optimizer, FUNIT's trainer), and one nested in the epoch's loop and
handed to a timer (I-JEPA's `train_step`), returning `float(loss)`."""

import torch


class Trainer:
    def __init__(self, model, gen_opt, dis_opt, device="cuda"):
        self.model = model.to(device)
        self.gen_opt, self.dis_opt = gen_opt, dis_opt

    def gen_update(self, content, style, hp):
        self.gen_opt.zero_grad()
        total, adv, acc = self.model(content, style, hp, "gen_update")  # (backward inside forward)
        self.loss_gen_total = torch.mean(total)
        self.accuracy_gen_adv = torch.mean(acc)
        self.gen_opt.step()
        return self.accuracy_gen_adv.item()  # expect: PP501


def train(encoder, predictor, optimizer, scaler, loader, gpu_timer, use_bfloat16, device="cuda"):
    encoder.to(device)
    for _epoch in range(100):
        for images, masks in loader:

            def train_step(images=images, masks=masks):
                z = predictor(encoder(images.to(device, non_blocking=True), masks))
                loss = torch.nn.functional.smooth_l1_loss(z, masks)
                if use_bfloat16:
                    scaler.scale(loss).backward()
                    scaler.step(optimizer)
                    scaler.update()
                else:
                    loss.backward()
                    optimizer.step()
                optimizer.zero_grad()
                return float(loss), optimizer.param_groups[0]["lr"]  # expect: PP501

            (loss, lr), elapsed = gpu_timer(train_step)


class GANTrainer:
    """lightweight-gan's `train`: one step per call, its backward run in gradient-accumulation rounds."""

    def __init__(self, G, D, G_opt, D_opt, accumulate_every=4):
        self.G, self.D = G.cuda(), D.cuda()
        self.G_opt, self.D_opt = G_opt, D_opt
        self.accumulate_every = accumulate_every

    def train(self, loader):
        self.D_opt.zero_grad()
        total_disc_loss = torch.zeros((), device="cuda")
        for _ in range(self.accumulate_every):
            images = next(loader).cuda()
            noise = torch.randn(images.shape[0], 256, device="cuda")
            disc_loss = (
                torch.relu(1 + self.D(self.G(noise).detach())).mean() + torch.relu(1 - self.D(images)).mean()
            )
            (disc_loss / self.accumulate_every).backward()
            total_disc_loss += disc_loss.detach()
        self.D_opt.step()
        self.d_loss = total_disc_loss.item() / self.accumulate_every  # expect: PP501
