# hold-out 8's misses: noise filled by an initialiser on the CPU (`init.normal(torch.Tensor(...))`, a GAN
# course) then moved every step, and a training-step def (backward and an optimizer step, run by a loop in
# another module) that makes its labels on the CPU every call; storage made once under `if not
# len(self.q):` is not reported
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.init as init
from torch.autograd import Variable

batch_size, z_size = 64, 100
generator = torch.load("generator.pt").cuda()
discriminator = torch.load("discriminator.pt").cuda()
gen_optim = torch.optim.Adam(generator.parameters(), lr=2e-4)
train_loader = torch.utils.data.DataLoader(
    torch.load("mnist.pt"), batch_size=64, num_workers=4, pin_memory=True
)

for _i in range(100):
    for _image, _label in train_loader:
        gen_optim.zero_grad()
        z = Variable(init.normal(torch.Tensor(batch_size, z_size), 0, 0.1)).cuda()  # expect: PP506 high
        gen_loss = -discriminator(generator(z)).mean()
        gen_loss.backward()
        gen_optim.step()


class GroupDRO(nn.Module):
    def __init__(self, featurizer, classifier):
        super().__init__()
        self.network = nn.Sequential(featurizer, classifier)
        self.q = torch.Tensor()

    def update(self, minibatches, optimizer):
        if not len(self.q):
            self.q = torch.ones(len(minibatches)).cuda()
        domain = torch.zeros(len(minibatches)).cuda()  # expect: PP506 high
        for m, (x, y) in enumerate(minibatches):
            domain[m] = F.cross_entropy(self.network(x.cuda()), y.cuda())
        loss = torch.dot(domain, self.q)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss.detach()
