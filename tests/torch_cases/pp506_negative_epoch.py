"""FSDP training script shape: a two-slot accumulator made on the host and moved once per epoch, around
the step loop; the per-step work is in the nested loop."""

import torch


def train(model, args, train_dataloader, optimizer):
    device = torch.device(f"cuda:{args.local_rank}")
    for epoch in range(args.num_train_epochs):
        model.train()
        fsdp_loss = torch.zeros(2).to(args.local_rank)
        for _, batch in enumerate(train_dataloader):
            batch = {k: v.to(device) for k, v in batch.items()}
            loss = model(**batch)["loss"]
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            fsdp_loss[0] += loss.detach()
            fsdp_loss[1] += len(batch["input_ids"])
        torch.distributed.all_reduce(fsdp_loss)
        print(epoch, fsdp_loss[0] / fsdp_loss[1])
