"""PP509: a comprehension whose `if` tests each element of a device tensor, in a beam search's decoding
loop run for every batch of the loader (show-edit-tell, after the image-captioning tutorial)."""

import torch
import torch.nn.functional as F


def evaluate(loader, decoder, word_map, beam_size, device):
    vocab_size = len(word_map)
    results = []
    for img, _ in loader:
        k = beam_size
        image_features = img.to(device).expand(k, -1, -1)
        k_prev_words = torch.full((k, 1), word_map["<start>"], dtype=torch.long, device=device)
        seqs = k_prev_words
        top_k_scores = torch.zeros(k, 1, device=device)
        complete_seqs = []
        h, c = decoder.init_hidden_state(k)
        step = 1
        while True:
            embeddings = decoder.embed(k_prev_words).squeeze(1)
            h, c = decoder.lstm(torch.cat([embeddings, image_features.mean(1)], dim=1), (h, c))
            scores = F.log_softmax(decoder.fc(h), dim=1)
            scores = top_k_scores.expand_as(scores) + scores
            top_k_scores, top_k_words = scores.view(-1).topk(k, 0, True, True)
            prev_word_inds = top_k_words // vocab_size
            nxt = top_k_words % vocab_size
            seqs = torch.cat([seqs[prev_word_inds], nxt.unsqueeze(1)], dim=1)
            keep = [i for i, w in enumerate(nxt) if w != word_map["<end>"]]  # expect: PP509
            complete_inds = list(set(range(len(nxt))) - set(keep))
            if complete_inds:
                complete_seqs.extend(seqs[complete_inds].tolist())
            k -= len(complete_inds)
            if k == 0 or step > 50:
                break
            seqs = seqs[keep]
            k_prev_words = nxt[keep].unsqueeze(1)
            step += 1
        results.append(complete_seqs)
    return results
