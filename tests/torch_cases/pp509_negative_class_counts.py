import torch


def per_class_accuracy(model, test_loader, device, classes):
    n_class_correct = torch.zeros(len(classes), device=device)
    n_class_samples = torch.zeros(len(classes), device=device)
    with torch.no_grad():
        for images, labels in test_loader:
            labels = labels.to(device)
            predicted = model(images.to(device)).argmax(1)
            n_class_samples += torch.bincount(labels, minlength=len(classes))
            n_class_correct += torch.bincount(labels[predicted == labels], minlength=len(classes))
    return (n_class_correct / n_class_samples.clamp(min=1)).tolist()


def tally(batches, names):
    counts = {}
    for batch in batches:
        ids = batch["ids"]  # a plain list of ints from the data set
        for i in range(len(ids)):
            name = ids[i]
            if name in names:
                counts[name] = counts.get(name, 0) + 1
    return counts
