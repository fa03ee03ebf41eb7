import torch


def select_action(actor, state, device):
    action = actor(torch.as_tensor(state, device=device))
    selected = action.clamp(-2.0, 2.0).cpu().detach().numpy()
    return selected


def run(actor, env, optimizer, device, steps):
    actor.train()
    state = env.reset()
    for _ in range(steps):
        action = select_action(actor, state, device)
        state, reward, done, _ = env.step(action)
        loss = -actor(torch.as_tensor(state, device=device)).mean() * reward
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
