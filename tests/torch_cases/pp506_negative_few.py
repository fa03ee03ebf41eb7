import matplotlib.pyplot as plt
import torch

device = torch.device("cuda")


def sample_digits(model, num_latent):
    model.eval()
    with torch.no_grad():
        for i in range(10):
            labels = torch.tensor([i] * 10, device=device)
            rand_features = torch.randn(10, num_latent).to(device)
            new_images = model.decoder(rand_features, labels)
            plt.imshow(new_images[0].cpu().numpy())


def train(model, loader, optimizer, criterion, hidden_size):
    for _ in range(5):
        state = torch.zeros(1, 20, hidden_size).cuda()  # once per epoch: five copies in all
        for x, y in loader:
            out, state = model(x.cuda(non_blocking=True), state.detach())
            loss = criterion(out, y.cuda(non_blocking=True))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
