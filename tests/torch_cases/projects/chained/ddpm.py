import torch
from tqdm import tqdm
from utils import *  # noqa: F403


def train(args, model, diffusion):
    device = args.device
    dataloader = get_data(args)  # noqa: F405
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    for _epoch in range(args.epochs):
        for images, _ in tqdm(dataloader):
            images = images.to(device)
            t = diffusion.sample_timesteps(images.shape[0])
            loss = torch.nn.functional.mse_loss(model(images, t), images)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
