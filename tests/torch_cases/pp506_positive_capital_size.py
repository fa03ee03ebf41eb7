# StarGAN v2's evaluation (hold-out 4): a one-letter capital bound to a size (`N = x.size(0)`) still builds
# a fill tensor on the CPU every batch; only rows gathered from an array are the step's data
import torch

device = torch.device("cuda")
generator = torch.load("generator.pt").to(device)
loader = torch.utils.data.DataLoader(torch.load("val.pt"), batch_size=32, num_workers=4, pin_memory=True)


@torch.no_grad()
def evaluate(trg_idx):
    for x_src in loader:
        N = x_src.size(0)
        x_src = x_src.to(device)
        y_trg = torch.tensor([trg_idx] * N).to(device)  # expect: PP506 high
        generator(x_src, y_trg)
