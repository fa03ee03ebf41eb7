import torch
from model import Net


def generate_sequence(model_path, seq_len, device):
    model = Net()
    model.load_state_dict(torch.load(model_path, map_location=device))
    model = model.to(device)
    model.eval()
    inp = torch.zeros(1, 1, 3)
    inp = inp.to(device)
    out = []
    with torch.no_grad():
        for _ in range(seq_len):
            inp = model(inp)
            out.append(inp)
    return out
