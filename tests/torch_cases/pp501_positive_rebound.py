# hold-out 8's hysts/pytorch_image_classification: the step's tensors read back into their own names
# (`loss = loss.item()`) for the meters every step; and (silent) a label batch read on the host before the
# loop moves it (`label.numpy()` for a one-hot encoding, then `Variable(label).cuda()`)
import torch
from torch.autograd import Variable


def train(epoch, model, optimizer, criterion, train_loader, loss_meter, acc_meter):
    model.train()
    for data, targets in train_loader:
        data = data.cuda()
        targets = targets.cuda()
        outputs = model(data)
        loss = criterion(outputs, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        acc = (outputs.argmax(dim=1) == targets).float().mean()
        loss = loss.item()  # expect: PP501
        acc = acc.item()
        loss_meter.update(loss, data.size(0))
        acc_meter.update(acc, data.size(0))


def train_infogan(discriminator, dis_optim, loss_func, train_loader, int_to_onehot, ones_label):
    for image, label in train_loader:
        image = Variable(image).cuda()
        label = torch.from_numpy(int_to_onehot(label.numpy()))
        label = Variable(label.type_as(torch.FloatTensor())).cuda()
        dis_optim.zero_grad()
        dis_real, label_real = discriminator.forward(image)
        dis_loss = torch.sum(loss_func(dis_real, ones_label)) + torch.sum(loss_func(label_real, label))
        dis_loss.backward()
        dis_optim.step()
