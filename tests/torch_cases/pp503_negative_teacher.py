import torch
import torch.nn.functional as F


def distill(student, teacher, loader, optimizer, T=4.0):
    student.train()
    teacher.eval()
    for data, _ in loader:
        output = student(data)
        with torch.no_grad():
            teacher_output = teacher(data)
        loss = F.kl_div(F.log_softmax(output / T, 1), F.softmax(teacher_output / T, 1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def finetune_frozen_bn(model, loader, optimizer):
    model.eval()  # batch norm statistics frozen, weights still trained
    for x, y in loader:
        out = model(x)
        loss = F.cross_entropy(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(out.detach().argmax(1))


def adversarial(model, loader, optimizer, eps):
    model.eval()
    for x, y in loader:
        x.requires_grad_()
        logits = model(x)
        F.cross_entropy(logits, y).backward()
        x_adv = (x + eps * x.grad.sign()).detach()
        loss = F.cross_entropy(model(x_adv), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
