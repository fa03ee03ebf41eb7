"""A conditional GAN's instructor sums its discriminator's loss over the categories of one step (a loop over
the step's own per-category samples, with no backward in it) and hands the total to its optimizing helper (of a
base class in another module) right after the loop: most likely the step's loss, whose graph the helper's
backward needs and frees (low). The same total over a validation loader's batches, handed to a logger, keeps
every batch's graph (the rule's own level)."""

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
                d_loss += self.D_criterion(d_out_real, d_out_fake)  # expect: PP502 low
            self.optimize(self.dis_opt, d_loss, self.dis)

    def validate(self, val_loader, log):
        val_loss = 0
        for samples, labels in val_loader:
            val_loss += self.D_criterion(self.dis(samples), labels)  # expect: PP502  # expect: PP503 medium
        log(val_loss)
