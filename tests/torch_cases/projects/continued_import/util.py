import numpy as np
import torch

rgb_from_xyz = np.array([[3.24, -0.97, 0.06], [-1.54, 1.88, -0.20], [-0.50, 0.04, 1.06]])


def uncenter_l(l_channel):
    return l_channel + 50


def tensor_lab2rgb(lab):
    xyz = lab.permute(0, 2, 3, 1)
    rgb = torch.mm(xyz.reshape(-1, 3), torch.from_numpy(rgb_from_xyz).type_as(xyz))  # expect: PP506
    return rgb.view(lab.size(0), lab.size(2), lab.size(3), 3).permute(0, 3, 1, 2)
