# ODIN's scoring loop (hold-out 10): one image per iteration, backward only to the input, the sign of the
# input's gradient bound to a fresh name and added to the image; no weight is updated, and each image's
# score must reach the host to be written
import numpy as np
import torch
import torch.nn as nn

net = torch.load("densenet.pt").cuda()
criterion = nn.CrossEntropyLoss()
loader = torch.utils.data.DataLoader(
    torch.load("cifar10_test.pt"), batch_size=1, num_workers=2, pin_memory=True
)
with open("scores.txt", "w") as out:
    for images, _ in loader:
        inputs = images.cuda().requires_grad_()
        outputs = net(inputs)
        scores = outputs.data.cpu().numpy()[0]
        labels = torch.LongTensor([np.argmax(scores)]).cuda()
        loss = criterion(outputs / 1000.0, labels)
        loss.backward()
        gradient = torch.ge(inputs.grad.data, 0)
        gradient = (gradient.float() - 0.5) * 2
        perturbed = torch.add(inputs.data, -0.0014, gradient)
        outputs = net(perturbed) / 1000.0
        out.write(f"{outputs.data.cpu().numpy().max()}\n")
