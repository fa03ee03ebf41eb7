import numpy as np
import torch
import torch.utils.data as Data


def cut_patches(cube, centres, width):
    patches = np.zeros((len(centres), 2 * width + 1, 2 * width + 1, cube.shape[-1]))
    for i, (row, col) in enumerate(centres):
        patches[i] = cube[row - width : row + width + 1, col - width : col + width + 1]
    return patches


def make_iters(cube, labels, train_centres, test_centres, width, batch_size):
    x_train = torch.from_numpy(cut_patches(cube, train_centres, width)).float()
    y_train = torch.from_numpy(labels[: len(train_centres)]).long()
    train_set = Data.TensorDataset(x_train, y_train)
    x_test = torch.from_numpy(cut_patches(cube, test_centres, width)).float()
    test_set = Data.TensorDataset(x_test, torch.zeros(len(test_centres)))
    train_iter = Data.DataLoader(dataset=train_set, batch_size=batch_size, shuffle=True)  # expect: PP505
    test_iter = Data.DataLoader(dataset=test_set, batch_size=batch_size, num_workers=0)  # expect: PP505
    return train_iter, test_iter


def make_loader(dataset, batch_size):
    return Data.DataLoader(dataset, batch_size=batch_size, shuffle=True)  # expect: PP505
