# The data-free continual learner's generator steps (hold-out 39): labels drawn and moved to the GPU, then
# mapped one element at a time with `.item()` in a comprehension on every step.
import numpy as np
import torch


def train_generator(generator, optimizer, class_mapping, num_classes, batch_size, steps):
    for _ in range(steps):
        labels = torch.from_numpy(np.random.choice(num_classes, batch_size)).cuda()  # expect: PP506 high
        translated = torch.tensor([class_mapping[j.item()] for j in labels]).cuda()  # expect: PP509
        loss = generator(labels, translated).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
