import numpy as np
import torch
from PIL import Image


def load_img(path):
    img = Image.open(path).convert("RGB").resize((256, 256))
    return torch.from_numpy(np.asarray(img)).permute(2, 0, 1).float() / 255
