# ruff: noqa: UP031
import torch  # noqa: F401 (marks the module as PyTorch code)
from tqdm import tqdm


def train_model(model, db_gen, optimizer, epoch, device, criterion):
    model.train()
    with tqdm(total=len(db_gen), ncols=70) as pbar:
        for idx, (m_batch, m_label) in enumerate(db_gen):
            m_batch, m_label = m_batch.to(device), m_label.to(device)
            output = model(m_batch, m_label)
            cce_loss = criterion["cce"](output, m_label)
            loss = cce_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if idx % 100 == 0:
                pbar.set_description("epoch: %d, cce:%.3f" % (epoch, cce_loss))
            pbar.update(1)


def train_stages(net, optimizer, train_loader, l2_loss, num_refinement_stages, log_after):
    net = net.cuda()
    for batch_idx, batch_data in enumerate(train_loader):
        images = batch_data["image"].cuda()
        keypoint_maps = batch_data["keypoint_maps"].cuda()
        paf_maps = batch_data["paf_maps"].cuda()
        stages_output = net(images)
        losses = []
        for loss_idx in range(num_refinement_stages + 1):
            losses.append(l2_loss(stages_output[loss_idx * 2], keypoint_maps))
            losses.append(l2_loss(stages_output[loss_idx * 2 + 1], paf_maps))
        loss = losses[0]
        for loss_idx in range(1, len(losses)):
            loss += losses[loss_idx]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if batch_idx % log_after == 0:
            for loss_idx in range(len(losses)):
                print(losses[loss_idx].item())
