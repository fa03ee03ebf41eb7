import torch
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def train(vae, data_loader, optimizer, epochs, vocab, wanted):
    for _epoch in range(epochs):
        for _iteration, (x, y) in enumerate(data_loader):
            x, y = x.to(device), y.to(device)
            recon_x, mean, log_var, z = vae(x, y)
            for i, _ in enumerate(y):
                word = vocab[z[i, 0].item()]
                print(word)
            for i, _ in enumerate(y):
                if i in wanted:
                    wanted[i] = z[i, 0].item()
            loss = F.binary_cross_entropy(recon_x, x)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
