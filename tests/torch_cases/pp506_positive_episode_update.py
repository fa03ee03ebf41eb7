# GAIL (hold-out 9): the loop around the rollout also updates the discriminator itself, on targets made on
# the CPU and copied every update
import gym
import torch
import torch.nn as nn

device = torch.device("cuda")
envs = gym.vector.make("Pendulum-v1", num_envs=8)
model = torch.load("actor_critic.pt").to(device)
discriminator = torch.load("discriminator.pt").to(device)
optimizer_discrim = torch.optim.Adam(discriminator.parameters())
criterion = nn.BCELoss()
state = envs.reset()
for _update in range(10000):
    states = []
    for _ in range(20):
        state = torch.as_tensor(state, device=device)
        dist, value = model(state)
        action = dist.sample()
        state, reward, done, _ = envs.step(action.cpu().numpy())
        states.append(state)
    fake = discriminator(torch.cat(states))
    optimizer_discrim.zero_grad()
    loss = criterion(fake, torch.ones((fake.shape[0], 1)).to(device))  # expect: PP506 high
    loss.backward()
    optimizer_discrim.step()
