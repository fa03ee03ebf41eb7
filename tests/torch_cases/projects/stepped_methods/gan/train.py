import torch


def train_gan(model, loader, critic_opt, batch_size, rounds=5):
    for x in loader:
        x = x.cuda()
        for _ in range(rounds):
            critic_opt.zero_grad()
            z = model.draw_latents(batch_size)
            g = model.generator(z)
            loss = model.critic_loss(x, z) + model.penalty_term(x, g.detach())
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.critic.parameters(), 10.0)
            critic_opt.step()
