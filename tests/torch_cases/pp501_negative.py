import torch

device = torch.device("cuda")


def train_epoch(model, loader, optimizer, criterion, log_every=100):
    running = torch.zeros((), device=device)
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        running += loss.detach()
        if step % log_every == 0:
            print(f"step {step}: {running.item() / (step + 1):.4f}")
    print("epoch loss", running.item() / len(loader))


def train_until(model, loader, optimizer, criterion, target):
    for x, y in loader:
        loss = criterion(model(x.to(device)), y.to(device))
        loss.backward()
        optimizer.step()
        if loss.item() < target:
            break


def run_agent(policy, env, optimizer):
    state = env.reset()
    for _ in range(1000):
        probs = policy(torch.as_tensor(state, device=device))
        action = probs.argmax().item()
        state, reward, done, _ = env.step(action)
        (-probs.log()[action] * reward).backward()
        optimizer.step()
