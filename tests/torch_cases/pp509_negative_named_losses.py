# VoteNet's statistics (hold-out 10): the network returns a dict of named losses and tensors, and the loop
# goes over its keys (tested against strings), not over a tensor's elements
import torch

net = torch.load("votenet.pt").cuda()
loader = torch.utils.data.DataLoader(torch.load("scannet.pt"), batch_size=8, num_workers=4, pin_memory=True)
optimizer = torch.optim.Adam(net.parameters())
stat_dict = {}
criterion = torch.load("votenet_loss.pt")
for batch in loader:
    optimizer.zero_grad()
    end_points = net(batch.cuda())
    loss, end_points = criterion(end_points)
    loss.backward()
    optimizer.step()
    for key in end_points:
        if "loss" in key or key == "obj_acc":
            if key not in stat_dict:
                stat_dict[key] = 0
            stat_dict[key] += end_points[key].item()
