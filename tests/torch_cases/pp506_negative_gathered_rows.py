# low-shot-shrink-hallucinate (hold-out 10): each step gathers rows of an in-memory NumPy array into
# one-letter names (`A = centroids[idx]`) and copies them: the step's data, which must cross anyway
import numpy as np
import torch
from torch.autograd import Variable

model = torch.load("generator.pt").cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
centroids = np.load("centroids.npy")
for _it in range(10000):
    idx = np.random.choice(len(centroids), 128)
    A = centroids[idx]
    B = centroids[(idx + 1) % len(centroids)]
    A = Variable(torch.Tensor(A)).cuda()
    B = Variable(torch.Tensor(B)).cuda()
    loss = ((model(A) - B) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
