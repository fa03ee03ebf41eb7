import numpy as np
import torch
from torch.optim import SGD


def preprocess_image(image):
    tensor = torch.from_numpy(np.float32(image) / 255).permute(2, 0, 1).unsqueeze(0)
    return tensor.requires_grad_(True)


def generate(model, created_image, target_class, iterations=150):
    for _ in range(1, iterations):
        # a new leaf tensor every iteration (round-tripped through uint8): its optimizer must be new too
        processed_image = preprocess_image(created_image)
        optimizer = SGD([processed_image], lr=6)
        class_loss = -model(processed_image)[0, target_class]
        model.zero_grad()
        class_loss.backward()
        optimizer.step()
        created_image = np.uint8(processed_image.detach()[0].permute(1, 2, 0).numpy() * 255)
    return created_image
