import torch.optim as optim
from dataloaders import get_mnist_dataloaders
from models import Discriminator, Generator
from training import Trainer

data_loader, _ = get_mnist_dataloaders(batch_size=64)
generator, discriminator = Generator(), Discriminator()
G_optimizer = optim.Adam(generator.parameters(), lr=1e-4)
D_optimizer = optim.Adam(discriminator.parameters(), lr=1e-4)
trainer = Trainer(generator, discriminator, G_optimizer, D_optimizer, use_cuda=True)
trainer.train(data_loader, 200)
