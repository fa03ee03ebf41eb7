"""torch-fix113: a loss built under an `if` on a flag the class sets once in `__init__` (Teacher-Assistant-KD's
`if self.have_teacher:`, SynthDehazing's `if self.use_bce == 1:`) is built on every step of that run."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class TrainManager:
    def __init__(self, student, teacher, optimizer, train_loader, device):
        self.student = student
        self.teacher = teacher
        self.have_teacher = bool(teacher)
        self.optimizer = optimizer
        self.train_loader = train_loader
        self.device = device

    def train(self, epochs, T=4.0, lambda_=0.5):
        criterion = nn.CrossEntropyLoss()
        for _epoch in range(epochs):
            for data, target in self.train_loader:
                data, target = data.to(self.device), target.to(self.device)
                self.optimizer.zero_grad()
                output = self.student(data)
                loss = criterion(output, target)
                if self.have_teacher:
                    teacher_outputs = self.teacher(data)
                    loss_kd = nn.KLDivLoss()(  # expect: PP507 high
                        F.log_softmax(output / T, dim=1), F.softmax(teacher_outputs / T, dim=1)
                    )
                    loss = (1 - lambda_) * loss + lambda_ * T * T * loss_kd
                loss.backward()
                self.optimizer.step()


class CycleGANTrainer:
    def __init__(self, gpu_device, use_bce, generator, discriminator):
        self.gpu_device = gpu_device
        self.use_bce = use_bce
        self.G = generator.to(gpu_device)
        self.D = discriminator.to(gpu_device)
        self.optimizer = torch.optim.Adam(self.G.parameters())

    def adversarial_loss(self, pred, target):
        if self.use_bce == 1:  # noqa: SIM108
            loss = nn.BCEWithLogitsLoss()  # expect: PP507 high
        else:
            loss = nn.L1Loss()  # expect: PP507 high
        return loss(pred, target)

    def train(self, dirty_tensor):
        self.optimizer.zero_grad()
        prediction = self.D(self.G(dirty_tensor))
        loss = self.adversarial_loss(prediction, torch.ones_like(prediction))
        loss.backward()
        self.optimizer.step()
