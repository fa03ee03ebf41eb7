# SAM's example training loop: the optimizer updates the weights in two phases, `first_step` and
# `second_step`; the loss is copied to the host for the log every step
import torch


def train(model, dataset, optimizer, log, scheduler, smooth_crossentropy, epochs, device):
    for epoch in range(epochs):
        model.train()
        for batch in dataset.train:
            inputs, targets = (b.to(device) for b in batch)
            predictions = model(inputs)
            loss = smooth_crossentropy(predictions, targets)
            loss.mean().backward()
            optimizer.first_step(zero_grad=True)
            smooth_crossentropy(model(inputs), targets).mean().backward()
            optimizer.second_step(zero_grad=True)
            with torch.no_grad():
                correct = torch.argmax(predictions.data, 1) == targets
                log(model, loss.cpu(), correct.cpu(), scheduler.lr())  # expect: PP501
                scheduler(epoch)


model = torch.nn.Linear(10, 2).cuda()
