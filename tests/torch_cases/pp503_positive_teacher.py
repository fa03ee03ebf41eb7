import torch.nn.functional as F


def distill(student, teacher, loader, optimizer, device, T=4.0):
    student.train()
    teacher.eval()
    for data, target in loader:
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = student(data)
        teacher_output = teacher(data)  # expect: PP503
        teacher_output = teacher_output.detach()
        loss = F.kl_div(F.log_softmax(output / T, 1), F.softmax(teacher_output / T, 1)) + F.cross_entropy(
            output, target
        )
        loss.backward()
        optimizer.step()


class Distiller:
    def __init__(self, student, teacher, optimizer):
        self.student, self.teacher, self.optimizer = student, teacher, optimizer

    def fit(self, loader):
        self.teacher.eval()
        for x, y in loader:
            soft = self.teacher(x).detach()  # expect: PP503
            loss = F.mse_loss(self.student(x), soft) + F.cross_entropy(self.student(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
