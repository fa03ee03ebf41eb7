# low-shot's matching network (hold-out 10): a buffer made with torch.zeros and filled, class by class, with
# rows read from an HDF5 file: host data, whose copy is needed however the buffer is made
import h5py
import numpy as np
import torch

model = torch.load("matching.pt").cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
file_handle = h5py.File("features.hdf5", "r")
all_labels = file_handle["all_labels"][...]
for _it in range(10000):
    classes = np.random.choice(1000, 5, replace=False)
    feats = torch.zeros(25, 512)
    count = 0
    for c in classes:
        rows = np.sort(np.random.choice(np.where(all_labels == c)[0], 5, replace=False))
        f_tmp = file_handle["all_feats"][list(rows)]
        feats[count : count + 5] = torch.Tensor(f_tmp)
        count += 5
    feats = feats.cuda()
    loss = model(feats).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
