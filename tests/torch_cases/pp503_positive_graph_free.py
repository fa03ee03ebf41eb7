import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader


def to_variable(var, cuda=True):
    return [v.cuda() if cuda else v for v in var]


class NetWrapper:
    """A net wrapper: `fit` steps on one batch, `eval` scores one batch; the epoch loops (another module,
    a notebook cell) call `net.eval(x, y)` for every dev batch."""

    def __init__(self, model, lr=1e-3, cuda=True):
        self.cuda = cuda
        self.model = model.cuda() if cuda else model
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.5)

    def set_mode_train(self, train=True):
        self.model.train(train)

    def fit(self, x, y):
        x, y = to_variable((x, y.long()), cuda=self.cuda)
        self.optimizer.zero_grad()
        out = self.model(x)
        loss = F.cross_entropy(out, y, reduction="sum")
        loss.backward()
        self.optimizer.step()
        return loss.data, out.data.max(dim=1, keepdim=False)[1].ne(y.data).sum()

    def eval(self, x, y, train=False):
        x, y = to_variable((x, y.long()), cuda=self.cuda)
        out = self.model(x)  # expect: PP503
        loss = F.cross_entropy(out, y, reduction="sum")
        probs = F.softmax(out, dim=1).data.cpu()
        pred = out.data.max(dim=1, keepdim=False)[1]
        err = pred.ne(y.data).sum()
        return loss.data, err, probs


class Recommender:
    """A recommender whose `predict` is called once per user by an evaluation loop elsewhere."""

    def __init__(self, net, use_cuda=True):
        self._net = net.cuda() if use_cuda else net
        self._optimizer = torch.optim.Adam(self._net.parameters())

    def fit(self, users, items, ratings):
        predictions = self._net(users, items)
        loss = ((ratings - predictions) ** 2).mean()
        self._optimizer.zero_grad()
        loss.backward()
        self._optimizer.step()

    def predict(self, user_ids, item_ids):
        self._net.train(False)
        out = self._net(user_ids.cuda(), item_ids.cuda())  # expect: PP503
        out = torch.sigmoid(out)
        return out.cpu().detach().numpy().flatten()


class Predictor:
    """An inference wrapper: the model is put in eval mode once, in `__init__`, and never trained."""

    def __init__(self, model, device="cuda"):
        self.device = torch.device(device)
        self.model = model.to(self.device)
        self.model.eval()

    def predict(self, dataset, batch_size=32):
        loader = DataLoader(dataset, batch_size=batch_size, shuffle=False, num_workers=1, pin_memory=True)
        predictions = []
        for batch in loader:
            scores, ids = self.model.decode(  # expect: PP503 high
                words=batch.input_ids.to(self.device), mask=batch.attention_mask.to(self.device)
            )
            predictions.extend(ids.tolist())
        return predictions


class Synthesizer:
    """An inference wrapper that loads its model on first use; each batch of texts is padded and moved
    before the model's autoregressive `generate`."""

    def __init__(self, model_fpath):
        self.model_fpath = model_fpath
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self._model = None

    def load(self, model_class):
        self._model = model_class().to(self.device)
        self._model.load(self.model_fpath)
        self._model.eval()

    def synthesize(self, texts, embeddings, batch_size=16):
        batches = [texts[i : i + batch_size] for i in range(0, len(texts), batch_size)]
        specs = []
        for i, batch in enumerate(batches):
            longest = max(len(t) for t in batch)
            chars = np.stack([np.pad(t, (0, longest - len(t))) for t in batch])
            chars = torch.tensor(chars).long().to(self.device)
            embeds = torch.tensor(np.stack(embeddings[i])).float().to(self.device)
            _, mels, _ = self._model.generate(chars, embeds)  # expect: PP503 high
            specs.extend(mels.detach().cpu().numpy())
        return specs


class RNDAgent:
    """Random network distillation: the exploration bonus runs both networks every environment step."""

    def __init__(self, model, rnd, use_cuda=True):
        self.device = torch.device("cuda" if use_cuda else "cpu")
        self.model = model.to(self.device)
        self.rnd = rnd.to(self.device)
        self.optimizer = torch.optim.Adam(
            list(self.model.parameters()) + list(self.rnd.predictor.parameters())
        )

    def compute_intrinsic_reward(self, next_obs):
        next_obs = torch.FloatTensor(next_obs).to(self.device)
        target_next_feature = self.rnd.target(next_obs)  # expect: PP503
        predict_next_feature = self.rnd.predictor(next_obs)
        intrinsic_reward = (target_next_feature - predict_next_feature).pow(2).sum(1) / 2
        return intrinsic_reward.data.cpu().numpy()

    def train_model(self, states, next_states):
        predicted, target = self.rnd(next_states)
        loss = F.mse_loss(predicted, target.detach())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()


class ICMAgent:
    """Curiosity: the forward model's error on every step is the bonus; its outputs are unpacked."""

    def __init__(self, model, icm, eta=0.01):
        self.device = torch.device("cuda")
        self.model = model.to(self.device)
        self.icm = icm.to(self.device)
        self.eta = eta
        self.optimizer = torch.optim.Adam(list(self.model.parameters()) + list(self.icm.parameters()))

    def compute_intrinsic_reward(self, state, next_state, action):
        state = torch.FloatTensor(state).to(self.device)
        next_state = torch.FloatTensor(next_state).to(self.device)
        action = torch.LongTensor(action).to(self.device)
        real_next, pred_next, pred_action = self.icm([state, next_state, action])  # expect: PP503
        intrinsic_reward = self.eta * F.mse_loss(real_next, pred_next, reduction="none").mean(-1)
        return intrinsic_reward.data.cpu().numpy()

    def train_model(self, states, next_states, actions):
        real_next, pred_next, pred_action = self.icm([states, next_states, actions])
        loss = F.mse_loss(pred_next, real_next.detach()) + F.cross_entropy(pred_action, actions)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
