"""Clean twin of pp502_positive_parts_handed_on.py: the per-category discriminator losses of one step summed
and backpropagated in the step itself, and a validation total summed under no_grad: no graph outlives
its step."""

import torch
import torch.optim as optim
from instructor import BasicInstructor
from models import CategoryDiscriminator
from utils.gan_loss import GANLoss


class CategoryGanInstructor(BasicInstructor):
    def __init__(self, opt):
        super().__init__(opt)
        self.dis = CategoryDiscriminator(opt.embed_dim, opt.max_seq_len, opt.vocab_size).cuda()
        self.dis_opt = optim.Adam(self.dis.parameters(), lr=opt.dis_lr)
        self.D_criterion = GANLoss(opt.loss_type, "D")

    def train_discriminator(self, d_steps, real_parts, fake_parts):
        for _ in range(d_steps):
            d_loss = 0
            for real_samples, fake_samples in zip(real_parts, fake_parts, strict=True):
                d_out_real = self.dis(real_samples)
                d_out_fake = self.dis(fake_samples)
                d_loss += self.D_criterion(d_out_real, d_out_fake)
            self.dis_opt.zero_grad()
            d_loss.backward()
            self.dis_opt.step()

    def validate(self, val_loader, log):
        val_loss = 0
        for samples, labels in val_loader:
            with torch.no_grad():
                val_loss += self.D_criterion(self.dis(samples), labels)
        log(val_loss)
