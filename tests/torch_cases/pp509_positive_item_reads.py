import math

import torch


def eval_model(model, eval_loader):
    model.eval()
    pred_result = []
    with torch.no_grad():
        for data in eval_loader:
            logits = model(*data[1:])
            score, pred = logits.max(-1)
            for i in range(pred.size(0)):
                pred_result.append(pred[i].item())  # expect: PP509
    return pred_result


def eval_split(model, loader, decode):
    predictions = []
    with torch.no_grad():
        for fc_feats, infos in loader:
            seq, seq_logprobs = model(fc_feats)
            perplexity = -seq_logprobs.sum(2).sum(1)
            sents = decode(seq)
            for k, sent in enumerate(sents):
                entry = {
                    "image_id": infos[k]["id"],
                    "caption": sent,
                    "perplexity": perplexity[k].item(),  # expect: PP509
                }
                predictions.append(entry)
    return predictions


def k_best_outputs(out, k):
    probs, ix = out[:, -1].data.topk(k)
    log_probs = torch.Tensor([math.log(p) for p in probs.data.view(-1)]).view(k, -1)  # expect: PP509 low
    return log_probs, ix
