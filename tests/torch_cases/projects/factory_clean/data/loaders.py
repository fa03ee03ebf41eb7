from torch.utils.data import DataLoader


def get_loader(dataset, batch_size):
    return DataLoader(dataset, batch_size=batch_size, shuffle=True, num_workers=4)


def get_cpu_loader(dataset, batch_size):
    return DataLoader(dataset, batch_size=batch_size, num_workers=4)
