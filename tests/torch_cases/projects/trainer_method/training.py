import torch


class Trainer:
    def __init__(self, generator, discriminator, gen_optimizer, dis_optimizer, use_cuda=False):
        self.G, self.D = generator, discriminator
        self.G_opt, self.D_opt = gen_optimizer, dis_optimizer
        self.use_cuda = use_cuda
        if self.use_cuda:
            self.G.cuda()
            self.D.cuda()

    def _critic_train_iteration(self, data):
        if self.use_cuda:
            data = data.cuda()
        latents = torch.randn(data.size(0), 100, device=data.device)
        d_loss = self.D(self.G(latents)).mean() - self.D(data).mean()
        self.D_opt.zero_grad()
        d_loss.backward()
        self.D_opt.step()

    def _train_epoch(self, data_loader):
        for _i, data in enumerate(data_loader):
            self._critic_train_iteration(data[0])

    def train(self, data_loader, epochs):
        for _epoch in range(epochs):
            self._train_epoch(data_loader)
