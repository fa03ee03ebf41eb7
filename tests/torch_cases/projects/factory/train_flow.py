import datasets
import torch


def train(args, model, optimizer):
    train_loader = datasets.fetch_dataloader(args)
    model.cuda()
    model.train()
    for _, data_blob in enumerate(train_loader):
        optimizer.zero_grad()
        image1, image2, flow = [x.cuda() for x in data_blob]
        loss = (model(image1, image2) - flow).abs().mean()
        loss.backward()
        optimizer.step()
    torch.save(model.state_dict(), "raft.pth")
