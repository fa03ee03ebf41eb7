"""A GAN's training-step closure (BigGAN's and DiffAugment's `GAN_training_function`, hold-out 13): the
discriminator's rounds in `range(config['num_D_steps'])`, each accumulating gradients, then the generator's
accumulated backward and one step, and `.item()` of the losses for the returned log. train.py calls the
returned `train(x, y)` on every batch, so each read waits for the GPU every step."""

import torch


def GAN_training_function(G, D, GD, z_, config):
    def train(x, y):
        x = torch.split(x, config["batch_size"])
        y = torch.split(y, config["batch_size"])
        counter = 0
        for _step_index in range(config["num_D_steps"]):
            D.optim.zero_grad()
            for _accumulation in range(config["num_D_accumulations"]):
                z_.sample_()
                D_fake, D_real = GD(z_, x[counter], y[counter], train_G=False)
                D_loss_real = torch.relu(1.0 - D_real).mean()
                D_loss_fake = torch.relu(1.0 + D_fake).mean()
                D_loss = (D_loss_real + D_loss_fake) / float(config["num_D_accumulations"])
                D_loss.backward()
                counter += 1
            D.optim.step()

        G.optim.zero_grad()
        for _accumulation in range(config["num_G_accumulations"]):
            z_.sample_()
            G_loss = -GD(z_, train_G=True).mean() / float(config["num_G_accumulations"])
            G_loss.backward()
        G.optim.step()

        out = {
            "G_loss": float(G_loss.item()),  # expect: PP501
            "D_loss_real": float(D_loss_real.item()),
            "D_loss_fake": float(D_loss_fake.item()),
        }
        return out

    return train


G = torch.nn.Linear(8, 8).cuda()
