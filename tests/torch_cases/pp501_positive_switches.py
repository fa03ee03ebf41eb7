"""Reads every step under a branch of the run's configuration (LTSF-Linear, the original transformer); under a
logging switch (`enable_tensorboard`) only when the run logs, so medium (torch-fix46)."""

import torch


def train(self, train_loader, criterion, model_optim, scaler):
    train_loss = []
    for i, (batch_x, batch_y) in enumerate(train_loader):
        model_optim.zero_grad()
        batch_x = batch_x.float().to(self.device)
        batch_y = batch_y.float().to(self.device)
        if self.args.use_amp:
            with torch.cuda.amp.autocast():
                outputs = self.model(batch_x)
                loss = criterion(outputs, batch_y)
                train_loss.append(loss.item())  # expect: PP501
        else:
            outputs = self.model(batch_x)
            loss = criterion(outputs, batch_y)
            train_loss.append(loss.item())
        if (i + 1) % 100 == 0:
            print(f"\\titers: {i + 1} | loss: {loss.item():.7f}")
        if self.args.use_amp:
            scaler.scale(loss).backward()
            scaler.step(model_optim)
            scaler.update()
        else:
            loss.backward()
            model_optim.step()
    return train_loss


def run_epoch(model, token_loader, optimizer, criterion, writer, training_config, is_train, step):
    for batch_idx, (src, trg) in enumerate(token_loader):
        src, trg = src.cuda(), trg.cuda()
        loss = criterion(model(src), trg)
        if is_train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if is_train:
            step += 1
            if training_config["enable_tensorboard"]:
                writer.add_scalar("training_loss", loss.item(), step)  # expect: PP501 medium
            if batch_idx % training_config["console_log_freq"] == 0:
                print(f"step {step}: loss {loss.item():.3f}")
    return step
