import numpy as np
import torch


def validate(net, valid_loader, cls_num):
    conf_mat = np.zeros([cls_num, cls_num])
    net.eval()
    with torch.no_grad():
        for images, labels in valid_loader:
            predicted = net(images).argmax(1)
            np.add.at(conf_mat, (labels.numpy(), predicted.numpy()), 1)
    return conf_mat


def report(conf_mat, names):
    for i in range(len(names)):
        total = conf_mat[i].sum()
        print(names[i], conf_mat[i, i] / max(total, 1))


def show_grid(samples):
    for i in range(len(samples)):
        image = samples[i].cpu()
        print(image.shape)


def few_examples(model, loader):
    for x, _ in loader:
        scores = model(x)
        for k in range(3):
            best = scores[k].item()
            print(best)
        break
