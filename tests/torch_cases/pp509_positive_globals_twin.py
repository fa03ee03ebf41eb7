import torch
import torch.nn.functional as F


def variable_to_numpy(x):
    return x.detach().cpu().numpy()


class AccuracyCounter:
    def __init__(self):
        self.total = 0.0


model = torch.nn.Linear(8, 4).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loader = [(torch.randn(16, 8), torch.randint(0, 4, (16,))) for _ in range(10)]
global_step = 0
while global_step < 1000:
    for im, label in loader:
        im, label = im.cuda(), label.cuda()
        loss = F.cross_entropy(model(im), label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        global_step += 1
        if global_step % 100 == 0:
            with torch.no_grad():
                predict = model(im)
            counters = [AccuracyCounter() for _ in range(4)]
            for each_label in label:
                counters[each_label].total += 1.0  # expect: PP509
