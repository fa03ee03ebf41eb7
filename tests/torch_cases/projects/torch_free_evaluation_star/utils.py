import numpy as np


def sample_batch(rows, size):
    return rows[np.random.randint(0, len(rows), size)]


def evaluate(model, dataset, num_users):
    hits = 0.0
    for user in range(1, num_users + 1):
        items = [dataset[user][0]] + list(np.random.randint(1, 1000, 100))
        scores = -model.predict([user] * len(items), items)  # expect: PP503
        rank = scores.argsort().argsort()[0].item()
        hits += rank < 10
    return hits / num_users
