import os

import torch


class Trainer:
    def __init__(self, models, ckpt_dir, loader):
        self.models = models
        self.ckpt_dir = ckpt_dir
        self.loader = loader

    def _model_ckpt_path(self, name, iteration):
        return os.path.join(self.ckpt_dir, f"ckpt_{name}_{iteration:07d}.pt")

    def validate_checkpoints(self, iteration):
        for model in self.models.values():
            model.eval()
        for name, model in self.models.items():
            model.load_state_dict(torch.load(self._model_ckpt_path(name, iteration)))
            for batch in self.loader:
                model(batch.cuda())  # expect: PP503 high


def validate_agent(agent, env):
    agent.policy.eval()
    for _ in range(2):
        env.reset()
        done = False
        while not done:
            action = agent.policy_model(torch.as_tensor(env.state).cuda())  # expect: PP503 medium
            done = env.step(action)
