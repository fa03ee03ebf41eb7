from modeling.deeplab import *  # noqa: F403  (hands over torch and nn)
from tqdm import tqdm


class Trainer:
    def __init__(self, model, train_loader, lr):
        self.model = model.cuda()
        self.train_loader = train_loader
        self.criterion = nn.CrossEntropyLoss(ignore_index=255)  # noqa: F405
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.9)  # noqa: F405

    def training(self, epoch):
        train_loss = 0.0
        self.model.train()
        tbar = tqdm(self.train_loader)
        for i, sample in enumerate(tbar):
            image, target = sample["image"].cuda(), sample["label"].cuda()
            self.optimizer.zero_grad()
            loss = self.criterion(self.model(image), target)
            loss.backward()
            self.optimizer.step()
            train_loss += loss.item()  # expect: PP501
            tbar.set_description(f"Train loss: {train_loss / (i + 1):.3f}")
