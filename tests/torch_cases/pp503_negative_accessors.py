import os

import torch

_ON_POLICY_MODE = False


def is_on_policy_mode():
    return _ON_POLICY_MODE


class Trainer:
    def __init__(self, models, ckpt_dir, accelerator):
        self.models = models
        self.ckpt_dir = ckpt_dir
        self.accelerator = accelerator

    def _model_ckpt_path(self, name, iteration):
        return os.path.join(self.ckpt_dir, f"ckpt_{name}_{iteration:07d}.pt")

    def _unwrap(self, model):
        return self.accelerator.unwrap_model(model)

    def validate_checkpoints(self, iteration):
        for model in self.models.values():
            model.eval()
        for name, model in self.models.items():
            model_path = self._model_ckpt_path(name, iteration)
            saved = torch.load(model_path)
            if saved.keys() != self._unwrap(model).state_dict().keys():
                raise RuntimeError(name)

    def _eval_modules(self):
        modules = []
        for model in self.models.values():
            for module in self._unwrap(model).modules():
                if hasattr(module, "reset_eval_stats"):
                    modules.append(module)
        return modules


def validate_agent(agent_fn, env):
    agent = agent_fn(env)
    agent.policy.eval()
    for _ in range(2):
        env.reset()
        done = False
        while not done:
            if not is_on_policy_mode():
                agent.train()
            done = env.step(agent.act(env.state))
