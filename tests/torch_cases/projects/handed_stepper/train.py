import torch
from nets.trainer import DetectorTrainer
from nets.vae import SetVAE
from utils.fit import fit_one_epoch, run


def main(model, encoder, loader, keys):
    optimizer = torch.optim.Adam(model.parameters())
    train_util = DetectorTrainer(model.cuda(), optimizer)
    for _epoch in range(100):
        fit_one_epoch(model, train_util, loader, 1000, True, None)
    vae = SetVAE(encoder).cuda()
    run(vae, torch.optim.Adam(vae.parameters()), loader, keys, "cuda")
