# online-continual-learning's nearest-class-mean evaluation (hold-out 48): each row of the device features
# normalised in place through `.data`, one row per pass, on every test batch
import torch


class Agent:
    @torch.no_grad()
    def evaluate(self, test_loaders, means):
        self.model.eval()
        accs = []
        for test_loader in test_loaders:
            for batch_x, batch_y in test_loader:
                batch_x = batch_x.cuda()
                feature = self.model.features(batch_x)
                for j in range(feature.size(0)):
                    feature.data[j] = feature.data[j] / feature.data[j].norm()  # expect: PP509
                dists = (feature.unsqueeze(2) - means).pow(2).sum(1)
                accs.append((dists.argmin(1) == batch_y.cuda()).float().mean())
        return accs
