"""torch-fix113: an `if` on an attribute the class changes outside `__init__` (a warm-up switch a step sets)
is no setting of the run: the loss under it is built only on the steps that take that branch."""

import torch.nn as nn
import torch.nn.functional as F


class DistillTrainer:
    def __init__(self, student, teacher, optimizer, train_loader, device):
        self.student = student
        self.teacher = teacher
        self.distill = False
        self.optimizer = optimizer
        self.train_loader = train_loader
        self.device = device

    def start_distilling(self):
        self.distill = True

    def train(self, epochs, T=4.0):
        criterion = nn.CrossEntropyLoss()
        for _epoch in range(epochs):
            for data, target in self.train_loader:
                data, target = data.to(self.device), target.to(self.device)
                self.optimizer.zero_grad()
                output = self.student(data)
                loss = criterion(output, target)
                if self.distill:
                    soft = self.teacher(data)
                    loss = loss + nn.KLDivLoss()(F.log_softmax(output / T, dim=1), F.softmax(soft / T, dim=1))
                loss.backward()
                self.optimizer.step()


class GrowingTrainer:
    """`self.teachers` is set in `__init__` but filled in place by `add_teacher`: the `if` may go either way."""

    def __init__(self, student, optimizer, train_loader, device):
        self.student = student
        self.teachers = []
        self.optimizer = optimizer
        self.train_loader = train_loader
        self.device = device

    def add_teacher(self, teacher):
        self.teachers.append(teacher)

    def train(self, epochs, T=4.0):
        criterion = nn.CrossEntropyLoss()
        for _epoch in range(epochs):
            for data, target in self.train_loader:
                data, target = data.to(self.device), target.to(self.device)
                self.optimizer.zero_grad()
                output = self.student(data)
                loss = criterion(output, target)
                if self.teachers:
                    soft = self.teachers[-1](data)
                    loss = loss + nn.KLDivLoss()(F.log_softmax(output / T, dim=1), F.softmax(soft / T, dim=1))
                loss.backward()
                self.optimizer.step()
