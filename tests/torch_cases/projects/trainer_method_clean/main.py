import torch
from dataloaders import get_mnist_dataloaders
from training import Trainer

train_loader, test_loader = get_mnist_dataloaders(batch_size=64)
model = torch.nn.Linear(784, 10)
trainer = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1))
trainer.train(train_loader, 10)
print(trainer.count(test_loader))
