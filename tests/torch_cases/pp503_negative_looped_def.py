import torch
import torch.nn.functional as F


class Agent:
    def __init__(self, net, target_net, optimizer):
        self.net = net
        self.target_net = target_net
        self.optimizer = optimizer

    def target_values(self, next_states):
        # the output goes back to the caller as a tensor (it may be differentiated there)
        self.target_net.eval()
        return self.target_net(next_states).max(1)[0]

    @torch.no_grad()
    def evaluate(self, states):
        self.net.eval()
        return self.net(states).argmax(1).tolist()

    def learn(self, batches):
        for states, next_states, rewards in batches:
            self.net.train()
            target = rewards + 0.99 * self.target_values(next_states).detach()
            loss = F.mse_loss(self.net(states).max(1)[0], target)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print(self.evaluate(states))


def accuracy(model, x, y):
    # its loop runs under no_grad
    model.eval()
    return (model(x).argmax(1) == y).float().mean().item()


def saliency(model, images):
    model.eval()
    images.requires_grad_(True)
    score = model(images).max(1)[0].sum()
    grads = torch.autograd.grad(score, images)[0]
    return grads.abs().numpy()


def report(model, batches, x, y):
    for images in batches:
        print(saliency(model, images))
    with torch.no_grad():
        for _ in range(3):
            print(accuracy(model, x, y))


def gradcam_overlay(model, image, cam_extractor, target_class):
    # the output goes to an extractor that differentiates it (Grad-CAM)
    model.eval()
    logits = model(image)
    return cam_extractor(target_class, logits)


def predict_on_image(model, image):
    model.eval()
    pred = model(image)
    print(pred.softmax(-1).max().item())


def overlays(model, images, cam_extractor, original, modified):
    for image in images:
        print(gradcam_overlay(model, image, cam_extractor, 3))
    for image in [original, *modified]:  # a literal few
        predict_on_image(model, image)


def attack_demo(model, images):
    for p in model.parameters():  # frozen: its forward on plain images records no graph
        p.requires_grad = False
    for image in images:
        predict_on_image(model, image)
