"""Loops nested in a training step that stay silent: one that computes no term of the step's loss (the
environment's rollout, whose actions must reach the host), one under a logging switch, and a gradient
clip over the parameters that reads nothing."""

import torch


def train_policy(policy, env, optimizer, episodes, max_steps):
    policy.cuda()
    for _ in range(episodes):
        log_probs, rewards = [], []
        state = env.reset()
        for _ in range(max_steps):
            probs = policy(torch.from_numpy(state).float().cuda())
            dist = torch.distributions.Categorical(probs)
            action = dist.sample()
            state, reward, done, _ = env.step(action.item())
            log_probs.append(dist.log_prob(action))
            rewards.append(reward)
            if done:
                break
        returns = torch.tensor(rewards).cuda()
        loss = -(torch.stack(log_probs) * returns).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def train_logged(model, loader, optimizer, criterion, writer, args):
    model.cuda()
    for step, (inputs, labels) in enumerate(loader):
        outputs = model(inputs.cuda())
        total = 0
        for head, output in enumerate(outputs):
            loss = criterion(output, labels.cuda())
            total = total + loss
            if args.verbose:
                writer.add_scalar(f"head{head}", loss.item(), step)
        optimizer.zero_grad()
        total.backward()
        for p in model.parameters():
            p.grad.data.clamp_(-1, 1)
        optimizer.step()
