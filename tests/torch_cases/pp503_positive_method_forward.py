# hold-out 8's missed evaluation (RAdam's 1B-word language model): the model put in eval mode runs its
# forward under another name (`log_prob`) on every test batch, with autograd on; a setter given the batch
# (`set_input`) runs nothing
import math

import torch


def evaluate(data_loader, lm_model, criterion, limited=76800):
    lm_model.eval()
    lm_model.init_hidden()
    total_loss, total_len = 0.0, 0
    for word_t, label_t in data_loader:
        label_t = label_t.view(-1)
        output = lm_model.log_prob(word_t)  # expect: PP503 high
        total_loss += label_t.size(0) * criterion(output, label_t).item()
        total_len += label_t.size(0)
        if total_len > limited:
            break
    return math.exp(total_loss / total_len)


def evaluate_l1(model, dataset):
    model.eval()
    scores = []
    for data in dataset:
        model.set_input(data)
        model.test()
        visuals = model.get_current_visuals()
        scores.append(torch.mean(torch.abs(visuals["fake_B"] - visuals["real_B"])).item())
    return sum(scores) / len(scores)
