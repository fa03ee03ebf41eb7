import torch
import torch.nn.functional as F


def edit_latent(text_model, decoder, tokens, latent, steps=100):
    text_repr = text_model(tokens).mean(1).detach()
    latent = latent.clone().requires_grad_(True)
    optimizer = torch.optim.Adam([latent], lr=0.1)
    for _ in range(steps):
        loss = 1 - F.cosine_similarity(decoder(latent), text_repr).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return latent.detach()


def run_edits(text_model, decoder, prompts, latents):
    text_model.eval()
    decoder.eval()
    results = []
    for tokens in prompts:
        for latent in latents:
            results.append(edit_latent(text_model, decoder, tokens, latent))
    return results


class Runner:
    def __init__(self, network, agents, env):
        self.network = network
        self.agents = agents
        self.env = env

    def evaluate_policy(self, steps):
        for agent in self.agents:
            agent.actor.eval()
        for agent_id, agent in enumerate(self.agents):
            agent.save_model(self.env, steps, agent_id)

    def eval(self, phases, device):
        for phase in phases:
            tg_model = self.network(num_classes=phase)
            tg_model.to(device)
            tg_model.eval()
            print(tg_model.fc.in_features)
