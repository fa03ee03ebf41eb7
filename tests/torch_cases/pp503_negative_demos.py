"""Forwards outside no_grad that cost nothing worth a finding, or that need gradients (hold-out 3 shapes)."""

import torch
import torchvision.models as models

device = torch.device("cuda")


def robustness(model, loader, adversary):
    model.eval()
    hits = 0
    for images, labels in loader:
        images, labels = images.to(device), labels.to(device)
        clean = model(images)
        perturbed = adversary.perturb(images, labels)  # the attack takes gradients through the model
        hits += (model(perturbed).argmax(1) == clean.argmax(1)).sum().item()
    return hits


def show_reconstructions(vae, loader, plot):
    vae.eval()
    for k, (x, _) in enumerate(loader):
        recon = vae(x.to(device))
        plot(x, recon.detach().cpu())
        if k >= 9:  # ten pictures
            break


def logits_per_architecture(names, image):
    for name in names:
        net = getattr(models, name)(pretrained=True).to(device)
        net.eval()
        print(name, net(image).argmax().item())


def compare(nets, test_x):
    for net in nets:
        net.eval()
    predictions = [net(test_x) for net in nets]
    return predictions


def plot_predictions(model, test_data, show):
    model.eval()
    num_to_plot = 5
    for i in range(num_to_plot):
        image, label = test_data[i]
        show(image, model(image.unsqueeze(0).to(device)).argmax().item(), label)
