import numpy as np
import torch


def test_single_volume(image, label, net, classes):
    """Segments a volume slice by slice: the batch is turned into NumPy first, and each slice is copied to
    the GPU as a new tensor."""
    image, label = image.squeeze(0).cpu().detach().numpy(), label.squeeze(0).cpu().detach().numpy()
    prediction = np.zeros_like(label)
    for ind in range(image.shape[0]):
        slice = image[ind, :, :]
        input = torch.from_numpy(slice).unsqueeze(0).unsqueeze(0).float().cuda()
        net.eval()
        with torch.no_grad():
            out = torch.argmax(torch.softmax(net(input), dim=1), dim=1).squeeze(0)  # expect: PP508
            prediction[ind] = out.cpu().detach().numpy()
    return [((prediction == i) == (label == i)).mean() for i in range(1, classes)]
