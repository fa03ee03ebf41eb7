import gym
import torch
from ppo import PPO
from storage import ActorCritic, Rollout


def main(frames=1000000, steps=128):
    env = gym.make("CartPole-v1")
    model = ActorCritic(env.observation_space.shape, env.action_space.n)
    agent = PPO(model, torch.optim.Adam(model.parameters(), lr=2.5e-4))
    rollout = Rollout(steps)
    obs = env.reset()
    for frame in range(frames):
        with torch.no_grad():
            action = model.act(torch.as_tensor(obs))
        obs, reward, done, _ = env.step(action)
        rollout.insert(obs, action, reward, done)
        if (frame + 1) % steps == 0:
            agent.update(rollout)


if __name__ == "__main__":
    main()
