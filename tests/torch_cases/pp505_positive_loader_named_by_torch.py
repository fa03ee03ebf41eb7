"""Knowledge-graph recommendation (KGCN's notebook): the project's own reader class is imported as
`DataLoader`, and the training batches come from torch's loader spelled out in full. That loader is torch's
(workers and pinning apply): no workers over a pandas frame read with `iloc` per item, batches copied to
the GPU every step (medium, as any data set of the module that only indexes a frame)."""

import numpy as np
import torch
from data_loader import DataLoader

kg_reader = DataLoader("movie")
df_dataset = kg_reader.load_dataset()


class KGCNDataset(torch.utils.data.Dataset):
    def __init__(self, df):
        self.df = df

    def __len__(self):
        return len(self.df)

    def __getitem__(self, idx):
        user_id = np.array(self.df.iloc[idx]["userID"])
        item_id = np.array(self.df.iloc[idx]["itemID"])
        label = np.array(self.df.iloc[idx]["label"], dtype=np.float32)
        return user_id, item_id, label


train_set = KGCNDataset(df_dataset)
train_loader = torch.utils.data.DataLoader(train_set, batch_size=32)  # expect: PP504 # expect: PP505 medium
device = torch.device("cuda")
net = torch.nn.Embedding(1000, 16).to(device)
optimizer = torch.optim.Adam(net.parameters())
for _ in range(10):
    for user_ids, item_ids, labels in train_loader:
        user_ids, item_ids, labels = user_ids.to(device), item_ids.to(device), labels.to(device)
        optimizer.zero_grad()
        loss = (net(user_ids) * net(item_ids)).sum(dim=1).sub(labels).pow(2).mean()
        loss.backward()
        optimizer.step()
