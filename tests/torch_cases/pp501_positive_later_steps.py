"""PP501 (torch-fix127): reads the loop makes on every step but the first. A matting trainer appends
`loss.item()` under `if iteration != 0:` on `enumerate(train_loader, 1)`'s counter, a test that is always
true (GFM's `core/train.py`, hold-out 42); a latent optimisation loop `for e in range(num_iterations)` draws
fresh SDF samples each iteration, steps the latent and copies the loss with `loss.cpu().data.numpy()`
(DeepSDF's `reconstruct`, hold-out 43): an iteration on a new draw, not an epoch over the whole data set."""

import torch

device = torch.device("cuda")


def train(model, optimizer, criterion, train_loader, loss_each_epoch):
    for iteration, batch in enumerate(train_loader, 1):
        image, alpha = batch[0].cuda(), batch[1].cuda()
        loss = criterion(model(image), alpha)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if iteration != 0:
            loss_each_epoch.append(loss.item())  # expect: PP501


def unpack_sdf_samples_from_ram(data, num_samples):
    return data[torch.randint(0, data.shape[0], (num_samples,))]


def reconstruct(decoder, num_iterations, latent_size, test_sdf, num_samples, lr):
    latent = torch.zeros(1, latent_size).normal_(0, 0.01).cuda()
    latent.requires_grad = True
    optimizer = torch.optim.Adam([latent], lr=lr)
    loss_l1 = torch.nn.L1Loss()
    loss_num = 0
    for e in range(num_iterations):
        sdf_data = unpack_sdf_samples_from_ram(test_sdf, num_samples).cuda()
        xyz, sdf_gt = sdf_data[:, 0:3], sdf_data[:, 3].unsqueeze(1)
        optimizer.zero_grad()
        inputs = torch.cat([latent.expand(num_samples, -1), xyz], 1)
        loss = loss_l1(decoder(inputs), sdf_gt)
        loss.backward()
        optimizer.step()
        if e % 50 == 0:
            print(e, latent.norm())
        loss_num = loss.cpu().data.numpy()  # expect: PP501
    return loss_num, latent
