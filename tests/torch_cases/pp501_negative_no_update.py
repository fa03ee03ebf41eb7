# loops that backpropagate but update no weights (hold-out 8): a class-activation map drawn per image of
# one batch, and a gradient-flow measurement that reads the gradient norm at h_0 after every step; the reads
# are what the loop is for, not a training step's log
import torch
import torch.nn as nn

device = torch.device("cuda")
model = torch.load("cnn.pt").to(device)
test_loader = torch.utils.data.DataLoader(torch.load("mnist_test.pt"), batch_size=32)

for image, label in test_loader:
    x = image.to(device)
    y = label.to(device)
    output = model(x)
    for j in range(20):
        model.zero_grad()
        lab = y[j].cpu().item()
        output[j, lab].backward(retain_graph=True)
    break

lstm = nn.LSTMCell(64, 64).to(device)
h_0 = torch.zeros(1, 64, device=device, requires_grad=True)
norms = []
h, c = h_0, torch.zeros(1, 64, device=device)
for _step in range(100):
    h, c = lstm(torch.randn(1, 64, device=device), (h, c))
    loss = h.sum()
    # (PP511, confidence low since torch-fix16, still names this retain_graph: the shape it cannot tell)
    loss.backward(retain_graph=True)  # expect: PP511
    norms.append(h_0.grad.norm().item())
    h_0.grad = None
