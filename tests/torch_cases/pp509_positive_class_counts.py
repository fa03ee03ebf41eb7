import torch


def per_class_accuracy(model, test_loader, device, batch_size, classes):
    n_class_correct = [0 for _ in range(len(classes))]
    n_class_samples = [0 for _ in range(len(classes))]
    with torch.no_grad():
        for images, labels in test_loader:
            images = images.to(device)
            labels = labels.to(device)
            outputs = model(images)
            _, predicted = torch.max(outputs, 1)
            for i in range(batch_size):  # expect: PP509 low
                label = labels[i]
                pred = predicted[i]
                if label == pred:
                    n_class_correct[label] += 1
                n_class_samples[label] += 1
    return [c / max(n, 1) for c, n in zip(n_class_correct, n_class_samples, strict=True)]
