"""A mixin that never names torch: the trainer class that imports it brings the network, optimizer and data."""


class TrainerIteration:
    def make_network_input(self):
        self.data.network_input = self.data.points.transpose(2, 1).contiguous().to(self.opt.device)

    def train_iteration(self):
        self.optimizer.zero_grad()
        self.make_network_input()
        self.data.reconstruction = self.network(self.data.network_input)
        self.data.loss = self.chamfer(self.data.points, self.data.reconstruction)
        self.log.update("loss_train_total", self.data.loss.item())  # expect: PP501
        if not self.opt.no_learning:
            self.data.loss.backward()
            self.optimizer.step()
