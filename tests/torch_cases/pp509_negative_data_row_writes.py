# rows normalised through `.data` on the host (the features copied to the CPU first), and a list of
# per-layer outputs a model returns, each replaced whole
import torch


class Agent:
    @torch.no_grad()
    def evaluate(self, test_loader):
        self.model.eval()
        out = []
        for batch_x, _batch_y in test_loader:
            feature = self.model.features(batch_x.cuda()).cpu()
            for j in range(feature.size(0)):
                feature.data[j] = feature.data[j] / feature.data[j].norm()
            feats = self.model.layers(batch_x.cuda())
            for i in range(len(feats)):
                feats[i] = feats[i].mean(1)
            out.append(feature)
        return out
