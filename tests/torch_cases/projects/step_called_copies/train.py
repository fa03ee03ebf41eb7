import torch
import torch.nn.functional as F
from dataset import StrokeDataset
from generate import generate_sequence
from model import Net
from shake import get_alpha_beta, get_noise
from torch.utils.data import DataLoader


def prepare_batch(batch, n_way, n_query, device):
    x, _ = batch
    y = torch.arange(0, n_way, 1 / n_query).long().to(device)  # expect: PP506
    return x.to(device), y


def train_epoch(model, optimizer, loader, device, mode):
    total = 0.0
    for batch in loader:
        x, y = prepare_batch(batch, 5, 4, device)
        alpha = get_alpha_beta(x.size(0), device)
        noise = get_noise(x.size(0), device, mode)
        out = model(x * alpha + noise)
        loss = F.cross_entropy(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.detach()
    return total


def main(model_path, epochs, mode):
    device = torch.device("cuda")
    loader = DataLoader(StrokeDataset("data/strokes.npy"), batch_size=20, num_workers=4, pin_memory=True)
    model = Net().to(device)
    optimizer = torch.optim.Adam(model.parameters())
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 10)
    best = None
    for _epoch in range(epochs):
        loss = train_epoch(model, optimizer, loader, device, mode)
        scheduler.step()
        if best is None or loss < best:
            best = loss
            torch.save(model.state_dict(), model_path)
            generate_sequence(model_path, 700, device)


if __name__ == "__main__":
    main("best.pt", 100, "stratified")
