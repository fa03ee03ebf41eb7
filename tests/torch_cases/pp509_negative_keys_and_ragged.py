"""torch-fix41 (tuned on hold-out 15): torchbeast's actor copies a model's named outputs into shared
buffers key by key (a dict, not a tensor); CFBI resizes per-sample predictions from a list whose items
have a different number of object channels each."""

import torch
import torch.nn.functional as F


def act(model, env, buffers, free_queue, unroll_length):
    env_output = env.initial()
    agent_state = model.initial_state(batch_size=1)
    agent_output, unused_state = model(env_output, agent_state)
    while True:
        index = free_queue.get()
        if index is None:
            break
        for key in agent_output:
            buffers[key][index][0, ...] = agent_output[key]
        for t in range(unroll_length):
            with torch.no_grad():
                agent_output, agent_state = model(env_output, agent_state)
            env_output = env.step(agent_output["action"])
            for key in agent_output:
                buffers[key][index][t + 1, ...] = agent_output[key]


class Matcher:
    def before_seghead_process(self, embeddings, masks):
        return [e * m for e, m in zip(embeddings, masks, strict=True)], None

    def forward(self, embeddings, masks, pred_size):
        bs = embeddings.size(0)
        tmp_dic, _ = self.before_seghead_process(embeddings, masks)
        all_pred = []
        for i in range(bs):
            pred = tmp_dic[i]
            pred = F.interpolate(pred, size=(pred_size[0], pred_size[1]), mode="bilinear")
            all_pred.append(pred)
        all_pred = torch.cat(all_pred, dim=0)
        return torch.softmax(all_pred, dim=1)
