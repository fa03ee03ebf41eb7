import gym
import torch
from ppo import PPO
from storage import ActorCritic, Rollout

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def main(frames=1000000, steps=128):
    env = gym.make("PongNoFrameskip-v4")
    model = ActorCritic(env.observation_space.shape, env.action_space.n).to(device)
    agent = PPO(model, torch.optim.Adam(model.parameters(), lr=2.5e-4))
    rollout = Rollout(steps, device)
    obs = env.reset()
    for frame in range(frames):
        with torch.no_grad():
            action = model.act(torch.as_tensor(obs, device=device))
        obs, reward, done, _ = env.step(action)
        rollout.insert(obs, action, reward, done)
        if (frame + 1) % steps == 0:
            agent.update(rollout)


if __name__ == "__main__":
    main()
