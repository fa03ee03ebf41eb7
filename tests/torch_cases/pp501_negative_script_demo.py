# A notebook exported as a script: a def that runs a backward to look at input gradients, and a plotting
# helper that calls it and prints a few maxima. The module calls the plotting helper twice, from its own
# top-level statements and outside any loop, so its reads run once per call, not once per training step.
import matplotlib.pyplot as plt
import torch

device = torch.device("cuda")
weights = torch.randn(3, 3, device=device, requires_grad=True)


def probe(image, speed=40):
    image = image.to(device).requires_grad_(True)
    cost = (weights @ image).pow(2).mean() * speed
    cost.backward(retain_graph=True)
    return image.grad, cost


def plot_probe(image, speed=40):
    grad, cost = probe(image, speed)
    plt.imshow(grad.cpu())
    print(f"grad max: {grad.max().item():.5}")
    print(f"cost: {cost.item():.5}")
    return grad


image = torch.ones(3, 3)
grad = plot_probe(image, speed=100)
grad = plot_probe(image, speed=25)
