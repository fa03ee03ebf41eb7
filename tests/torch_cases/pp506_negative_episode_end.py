# torch-fix94: clean twin of pp506_positive_episode_end: the zeros are made on the device
import torch


def train(rank, args, shared_model, optimizer, env, player, gpu_id=0):
    while True:
        player.model.load_state_dict(shared_model.state_dict())
        if player.done:
            player.cx = torch.zeros(1, 512, device="cuda")
            player.hx = torch.zeros(1, 512, device="cuda")
        else:
            player.cx = player.cx.detach()
            player.hx = player.hx.detach()
        for _ in range(args.num_steps):
            player.action_train()
            if player.done:
                break
        R = torch.zeros(1, 1, device="cuda")
        if not player.done:
            value, _, _ = player.model((player.state.unsqueeze(0), (player.hx, player.cx)))
            R = value.detach()
        policy_loss = 0
        for i in reversed(range(len(player.rewards))):
            R = args.gamma * R + player.rewards[i]
            policy_loss = policy_loss - player.log_probs[i] * (R - player.values[i]).detach()
        player.model.zero_grad()
        policy_loss.backward()
        optimizer.step()
        player.clear_actions()
