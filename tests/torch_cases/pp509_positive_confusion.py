import numpy as np
import torch


def validate(net, valid_loader, criterion, cls_num):
    conf_mat = np.zeros([cls_num, cls_num])
    loss_sigma = 0.0
    net.eval()
    with torch.no_grad():
        for images, labels in valid_loader:
            outputs = net(images)
            loss_sigma += criterion(outputs, labels).item()
            _, predicted = torch.max(outputs.data, 1)
            for j in range(len(labels)):  # expect: PP509 low
                cate_i = labels[j].numpy()
                pre_i = predicted[j].numpy()
                conf_mat[cate_i, pre_i] += 1.0
    return conf_mat, loss_sigma


def per_class_accuracy(model, test_loader, batch_size):
    class_correct = [0.0] * 10
    class_total = [0.0] * 10
    model.eval()
    with torch.no_grad():
        for data, target in test_loader:
            _, pred = torch.max(model(data), 1)
            correct = np.squeeze(pred.eq(target.data.view_as(pred)))
            for i in range(batch_size):  # expect: PP509 low
                label = target.data[i]
                class_correct[label] += correct[i].item()
                class_total[label] += 1
    return class_correct, class_total
