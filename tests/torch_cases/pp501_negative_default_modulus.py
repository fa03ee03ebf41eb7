import torch


# The progress lines sit under a remainder test whose divisor defaults to 100: one step in a hundred.
def train_epoch(cur_epoch, model, dataloader, loss, opt, print_modulus=100):
    device = torch.device("cuda")
    model.train()
    for batch_num, batch in enumerate(dataloader):
        opt.zero_grad()
        x = batch[0].to(device)
        tgt = batch[1].to(device)
        out = loss.forward(model(x), tgt)
        out.backward()
        opt.step()
        if (batch_num + 1) % print_modulus == 0:
            print("Epoch", cur_epoch, "Batch", batch_num + 1)
            print("Train loss:", float(out))
