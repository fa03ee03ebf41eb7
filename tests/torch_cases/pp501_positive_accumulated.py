# gradients accumulated over sub-batches (deeplab's iter_size) or tasks (MAML's meta-batch): the inner
# loop only backpropagates, the loop around it steps the optimizer; the inner loop's reads are per step
import torch

device = torch.device("cuda")
model = torch.load("deeplab.pt").to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
voc = torch.utils.data.DataLoader(torch.load("voc.pt"), batch_size=5, num_workers=4)  # expect: PP505 medium
loader_iter = iter(voc)
iter_size = 2

for iteration in range(20000):
    optimizer.zero_grad()
    iter_loss = 0
    for _ in range(iter_size):
        images, labels = next(loader_iter)
        loss = model(images.to(device), labels.to(device)) / iter_size
        loss.backward()
        iter_loss += float(loss)  # expect: PP501
    optimizer.step()
    print(iteration, iter_loss)
