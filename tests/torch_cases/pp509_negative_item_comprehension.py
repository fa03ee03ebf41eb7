# A comprehension over a host NumPy draw: its elements' `.item()` is a NumPy scalar's, no device read.
import numpy as np
import torch


def train_generator(generator, optimizer, class_mapping, num_classes, batch_size, steps):
    for _ in range(steps):
        drawn = np.random.choice(num_classes, batch_size)
        translated = torch.tensor([class_mapping[j.item()] for j in drawn], device="cuda")
        labels = torch.randint(num_classes, (batch_size,), device="cuda")
        loss = generator(labels, translated).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
