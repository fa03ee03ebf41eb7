import numpy as np
import torch


def test_single_volume(image, label, net, classes):
    image, label = image.squeeze(0).cpu().detach().numpy(), label.squeeze(0).cpu().detach().numpy()
    inputs = torch.from_numpy(image).unsqueeze(1).float().cuda()
    net.eval()
    with torch.no_grad():
        prediction = torch.argmax(net(inputs), dim=1).cpu().numpy()
    return [float(np.mean(prediction == i)) for i in range(1, classes)]
