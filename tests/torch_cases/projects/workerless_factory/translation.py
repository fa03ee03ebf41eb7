import torch


def fit_translator(generator, optimizer, photos, paintings, epochs):
    generator.cuda()
    painting_batches = iter(paintings)
    for _ in range(epochs):
        for photo, _ in photos:
            painting, _ = next(painting_batches)
            photo, painting = photo.cuda(), painting.cuda()
            loss = (generator(photo) - painting).abs().mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    torch.save(generator.state_dict(), "generator.pt")
