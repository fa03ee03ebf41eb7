# hold-out 8's missed loaders: a script's progress bar made in its epoch loop (SRGAN: `train_bar =
# tqdm(train_loader)`, the batch renamed before the copy), and a batch unpacked into Variables before the
# copy (SRResNet: `input, target = Variable(batch[0]), Variable(batch[1])`)
import torch
from torch.autograd import Variable
from torch.utils.data import DataLoader
from tqdm import tqdm

train_set = torch.load("div2k_train.pt")
train_loader = DataLoader(dataset=train_set, num_workers=4, batch_size=64)  # expect: PP505 medium
netG = torch.load("generator.pt").cuda()
optimizerG = torch.optim.Adam(netG.parameters())

for _epoch in range(1, 101):
    train_bar = tqdm(train_loader)
    for data, target in train_bar:
        real_img = target
        if torch.cuda.is_available():
            real_img = real_img.float().cuda()
        loss = ((netG(data.float().cuda()) - real_img) ** 2).mean()
        optimizerG.zero_grad()
        loss.backward()
        optimizerG.step()


def train(training_data_loader, optimizer, model, criterion):
    for _iteration, batch in enumerate(training_data_loader, 1):
        input, target = Variable(batch[0]), Variable(batch[1], requires_grad=False)
        input = input.cuda()
        target = target.cuda()
        loss = criterion(model(input), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


h5_set = torch.load("srresnet_x4.pt")
training_data_loader = DataLoader(h5_set, num_workers=4, batch_size=16, shuffle=True)  # expect: PP505 medium
train(training_data_loader, optimizerG, netG, torch.nn.MSELoss())
