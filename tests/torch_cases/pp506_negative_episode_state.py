# an RL agent's initial recurrent state (hold-out 10): made on the CPU and copied once per episode, in the
# loop around the one that steps the environment; the updates run in the inner loop
import gym
import torch

env = gym.make("Pendulum-v1")
policy = torch.load("lstm_policy.pt").cuda()
trainer = torch.load("sac_trainer.pt")
for _episode in range(1000):
    state = env.reset()
    hidden_out = (torch.zeros([1, 1, 512]).cuda(), torch.zeros([1, 1, 512]).cuda())
    for _step in range(200):
        hidden_in = hidden_out
        action, hidden_out = policy.get_action(state, hidden_in)
        state, reward, done, _ = env.step(action)
        trainer.update(64)
        if done:
            break
