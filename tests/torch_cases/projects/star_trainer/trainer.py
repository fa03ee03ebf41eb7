import torch


def train_model(model, db_gen, optimizer, epoch, device, criterion):
    model.train()
    for m_batch, m_label in db_gen:
        m_batch, m_label = m_batch.to(device), m_label.to(device)
        output = model(m_batch, m_label)
        loss = criterion["cce"](output, m_label)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
