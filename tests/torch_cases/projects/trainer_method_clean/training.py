class Trainer:
    def __init__(self, model, optimizer):
        self.model, self.optimizer = model, optimizer

    def train(self, data_loader, epochs):
        for _epoch in range(epochs):
            for x, y in data_loader:
                loss = self.model(x, y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

    def count(self, data_loader):
        return sum(len(x) for x, _ in data_loader)
