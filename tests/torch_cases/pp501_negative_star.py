from chainer_utils import *  # noqa: F403  (a framework without torch: no torch or nn names used here)
from tqdm import tqdm


def training(model, optimizer, train_iter, device):
    train_loss = 0.0
    for i, (image, target) in enumerate(tqdm(train_iter)):
        image, target = to_device(device, image), to_device(device, target)  # noqa: F405
        loss = softmax_cross_entropy(model(image), target)  # noqa: F405
        model.cleargrads()
        loss.backward()
        optimizer.update()
        train_loss += loss.item()
        print(f"Train loss: {train_loss / (i + 1):.3f}")
