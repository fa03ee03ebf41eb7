import torch


def fit_one_epoch(model, train_util, loader, epoch_step, cuda, scaler):
    total_loss = 0
    for iteration, batch in enumerate(loader):
        if iteration >= epoch_step:
            break
        images, boxes = batch[0], batch[1]
        with torch.no_grad():
            if cuda:
                images = images.cuda()
        cls, box, total = train_util.train_step(images, boxes, scaler)
        total_loss += total.detach()
        if iteration % 100 == 0:
            print(total_loss.item() / (iteration + 1))


def rollout(env, policy, steps, device):
    rewards = []
    for _t in range(steps):
        state = torch.as_tensor(env.state).to(device)
        obs, reward, done, info = env.step(policy(state))
        rewards.append(float(reward))
    return rewards


def run(model, optimizer, loader, keys, device):
    logs = {k: [] for k in keys}
    for _epoch in range(10):
        model.train()
        for _itr, batch in enumerate(loader):
            x = batch.to(device)
            out = model.step(x, optimizer)
            for k in keys:
                logs[k].append(out[k].detach())
    return {k: torch.stack(v).mean().item() for k, v in logs.items()}
