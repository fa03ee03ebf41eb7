import torch


def encode_prompts(text_model, prompts):
    text_model.eval()
    reprs = []
    for tokens in prompts:
        reprs.append(encode(text_model, tokens))  # expect: PP503 high
    return torch.cat(reprs)


def encode(text_model, tokens):
    return text_model(tokens).mean(1)


def score(text_model, batches, device):
    text_model.eval()
    scores = []
    for ids, mask in batches:
        out = text_model(input_ids=ids.to(device), attention_mask=mask.to(device))  # expect: PP503 high
        scores.append(out.logits.argmax(-1))
    return scores
