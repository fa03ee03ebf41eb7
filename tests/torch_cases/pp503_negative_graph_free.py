import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class NetWrapper:
    """`eval` hands the forward's output back as a tensor (a caller may differentiate it); `test` runs under
    no_grad; `validation_step` is Lightning's hook, which the trainer runs under no_grad."""

    def __init__(self, model):
        self.model = model.cuda()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1)

    def fit(self, x, y):
        self.optimizer.zero_grad()
        loss = F.cross_entropy(self.model(x.cuda()), y.cuda())
        loss.backward()
        self.optimizer.step()
        return loss.detach()

    def eval(self, x, y):
        out = self.model(x.cuda())
        loss = F.cross_entropy(out, y.cuda())
        return loss, out

    def store_eval(self, x):
        out = self.model(x.cuda())
        self.last_out = out
        return out.argmax(1).tolist()

    @torch.no_grad()
    def test(self, x, y):
        out = self.model(x.cuda())
        return out.argmax(1).eq(y.cuda()).sum().item()

    def validation_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self.model(x), y).item()


class Scorer:
    """A class that never trains: an eval-named method alone is no evidence, without eval mode."""

    def __init__(self, model):
        self.model = model.cuda()

    def evaluate(self, x):
        return self.model(x.cuda()).argmax(1).tolist()


class BeamDecoder(nn.Module):
    """A network's own methods: the language model is in eval mode, but the caller decides about gradients
    (the decoding script calls this module under no_grad)."""

    def __init__(self, asr, lm, beam_size=5):
        super().__init__()
        self.asr = asr
        self.lm = lm
        self.lm.eval()
        self.beam_size = beam_size

    def forward(self, feat, hyps):
        for hyp in hyps:
            output, hidden = self.lm(hyp.last_token(), hyp.lm_hidden)
            hyp.update_lm(output.log_softmax(dim=-1).cpu().numpy(), hidden)
        return hyps


class FaceDetection:
    """An inference wrapper that turns autograd off for the whole process in its `__init__`."""

    def __init__(self, net):
        torch.set_grad_enabled(False)
        self.net = net.cuda()
        self.net.eval()

    def detect(self, img_raw):
        img = torch.from_numpy(np.float32(img_raw)).unsqueeze(0).cuda()
        loc, conf = self.net(img)
        return loc.data.cpu().numpy(), conf.data.cpu().numpy()


class TrainedHolder:
    """It puts its model in eval mode and also trains it: the mode is not its whole story."""

    def __init__(self, model):
        self.model = model.cuda()
        self.model.eval()
        self.optimizer = torch.optim.Adam(self.model.parameters())

    def embed(self, x):
        return self.model(x.cuda()).detach().cpu().numpy()

    def step(self, x, y):
        self.model.train()
        loss = F.mse_loss(self.model(x.cuda()), y.cuda())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class Segmenter:
    """A multi-scale inference helper: the loop goes over scales, not batches, and its caller holds
    no_grad (`_given_loop_batch` follows what the body makes of the loop's value only for a method of the
    evaluated model itself)."""

    def inference(self, model, image):
        return model(image).exp()

    def multi_scale_inference(self, model, image, scales=(1.0,)):
        total = 0
        for scale in scales:
            resized = F.interpolate(image, scale_factor=scale)
            preds = self.inference(model, resized)
            total = total + F.interpolate(preds, size=image.shape[-2:])
        return total


class RNDAgent:
    """The bonus is handed back as a tensor: its graph leaves the def."""

    def __init__(self, rnd):
        self.rnd = rnd.to(torch.device("cuda"))
        self.optimizer = torch.optim.Adam(self.rnd.predictor.parameters())

    def compute_intrinsic_reward(self, next_obs):
        next_obs = torch.FloatTensor(next_obs).to(torch.device("cuda"))
        target = self.rnd.target(next_obs)
        predicted = self.rnd.predictor(next_obs)
        return (target - predicted).pow(2).sum(1)

    def train_model(self, next_states):
        predicted, target = self.rnd(next_states)
        loss = F.mse_loss(predicted, target.detach())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
